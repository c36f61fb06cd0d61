//go:build mpi

package parallel_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
)

// allReduceCounts are the numbers of float64s BenchmarkAllReduce sums: a
// mini-batch's users' vectors to a large model's dense gradient.
var allReduceCounts = []int{1 << 10, 1 << 14, 1 << 17, 1 << 20, 1 << 22}

// BenchmarkAllReduce prints, for MPI_BENCH_RANKS ranks (2 by default)
// under mpirun --bind-to none, the time of one all-reduce of each of
// allReduceCounts float64s through World.AllReduceSum (cgo, as training
// calls it) and through a C loop of MPI_Allreduce (testdata/allreduce.c,
// built with mpicc, or the program MPI_BENCH_C names), the medians of 3
// runs of each, interleaved, their ratio, and the Go side's bandwidth: the
// bytes of the buffer over the time.
func BenchmarkAllReduce(b *testing.B) {
	if os.Getenv(rankEnv) != "" {
		b.Skip("a rank runs TestAllReduceRank")
	}
	ranks := 2
	if n, err := strconv.Atoi(os.Getenv("MPI_BENCH_RANKS")); err == nil && n > 0 {
		ranks = n
	}
	cProg := os.Getenv("MPI_BENCH_C")
	if cProg == "" {
		cProg = filepath.Join(b.TempDir(), "allreduce")
		if out, err := exec.Command("mpicc", "-O2", "-o", cProg, "testdata/allreduce.c").CombinedOutput(); err != nil {
			b.Fatalf("mpicc: %v\n%s", err, out)
		}
	}
	var counts []string
	for _, n := range allReduceCounts {
		counts = append(counts, strconv.Itoa(n))
	}
	run := func(env []string, args ...string) map[int]float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		mpi := []string{"-np", strconv.Itoa(ranks), "--bind-to", "none"}
		if ranks > 2 {
			mpi = append(mpi, "--oversubscribe")
		}
		cmd := exec.CommandContext(ctx, "mpirun", append(mpi, args...)...)
		cmd.Env = append(append(os.Environ(), env...), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("mpirun: %v\n%s", err, out)
		}
		times := map[int]float64{}
		for _, m := range allReduceLine.FindAllStringSubmatch(string(out), -1) {
			n, _ := strconv.Atoi(m[1])
			times[n], _ = strconv.ParseFloat(m[2], 64)
		}
		if len(times) != len(allReduceCounts) {
			b.Fatalf("%d of %d counts timed:\n%s", len(times), len(allReduceCounts), out)
		}
		return times
	}
	c, g := map[int][]float64{}, map[int][]float64{}
	for range 3 {
		for n, t := range run(nil, append([]string{cProg}, counts...)...) {
			c[n] = append(c[n], t)
		}
		for n, t := range run([]string{rankEnv + "=bench"}, os.Args[0], "-test.run", "^TestAllReduceRank$") {
			g[n] = append(g[n], t)
		}
	}
	fmt.Printf("host: %d ranks, medians of 3 interleaved runs\n%10s %10s %12s %12s %7s %10s\n", ranks, "values", "MB", "C µs", "Go µs", "Go/C", "Go GB/s")
	for _, n := range allReduceCounts {
		cn, gn := median(c[n]), median(g[n])
		fmt.Printf("%10d %10.2f %12.1f %12.1f %7.2f %10.2f\n", n, float64(8*n)/1e6, 1e6*cn, 1e6*gn, gn/cn, float64(8*n)/gn/1e9)
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

var allReduceLine = regexp.MustCompile(`(?m)^allreduce (\d+) ([0-9.e+-]+)$`)

// TestAllReduceRank is one rank of BenchmarkAllReduce: it times
// World.AllReduceSum as testdata/allreduce.c times MPI_Allreduce.
func TestAllReduceRank(t *testing.T) {
	if os.Getenv(rankEnv) != "bench" {
		t.Skip("run by BenchmarkAllReduce under mpirun")
	}
	w, err := parallel.Init()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, n := range allReduceCounts {
		iters := max(20, 256<<20/8/n)
		buf := make([]float64, n)
		for i := range buf {
			buf[i] = float64(w.Rank() + i)
		}
		for range 3 {
			if err := w.AllReduceSum(buf); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Barrier(); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for range iters {
			if err := w.AllReduceSum(buf); err != nil {
				t.Fatal(err)
			}
		}
		lines = append(lines, fmt.Sprintf("allreduce %d %.9f", n, time.Since(start).Seconds()/float64(iters)))
	}
	if w.Rank() == 0 {
		fmt.Println(strings.Join(lines, "\n"))
	}
	if err := w.Close(); err != nil {
		t.Error(err)
	}
}
