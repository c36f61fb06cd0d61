//go:build duckdb_arrow

package functions_test

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// vmHWM is this process's peak resident set size in bytes, from
// /proc/self/status.
func vmHWM(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb * 1024
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// BenchmarkTrainMNISTMemory loads all of MNIST (70,000 images, 439 MB as
// doubles) with load_mnist and trains one epoch of a linear model on its
// 60,000 training images through SQL, sampling the Go heap in use every
// 50 ms. It reports the peak heap during training and the process's peak
// RSS (server, DuckDB and test together), in MB: what holding the rows
// in memory cost, and what spilling them saves.
//
//	go test -tags duckdb_arrow -run '^$' -bench BenchmarkTrainMNISTMemory -benchtime 1x -v ./functions/
func BenchmarkTrainMNISTMemory(b *testing.B) {
	conn := connect(b, startServer(b), pgx.QueryExecModeSimpleProtocol)
	exec(b, conn, "SELECT * FROM load_mnist('mnist', path := '"+gomnistData(b)+"')")
	var peak uint64
	for i := range b.N {
		stop, done := make(chan bool), make(chan bool)
		go func() {
			defer func() { done <- true }()
			var m runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
					runtime.ReadMemStats(&m)
					peak = max(peak, m.HeapInuse)
				}
			}
		}()
		exec(b, conn, "SELECT * FROM train_classifier('mnist', label := 'label', shape := [1, 28, 28], split := 'split', "+
			"architecture := 'linear', epochs := 1, model := 'lin"+strconv.Itoa(i)+"')")
		stop <- true
		<-done
	}
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
	b.ReportMetric(vmHWM(b)/1e6, "peak-RSS-MB")
}
