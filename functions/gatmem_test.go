//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestTrainGATLongMemory trains on a long catalogue of
// MALLARD_MEM_SERIES products x 156 weeks, as bench catalogue -long does,
// in this process, and prints the peak of the Go heap in use (sampled
// every 20 ms, as of the last collection) with its profile at that peak
// written to MALLARD_MEM_PROFILE where set.
// It measures; it asserts nothing and is skipped unless the variable is
// set.
func TestTrainGATLongMemory(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MALLARD_MEM_SERIES"))
	if n < 2 {
		t.Skip("MALLARD_MEM_SERIES not set")
	}
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, fmt.Sprintf(`CREATE TABLE sales AS SELECT CAST(w AS INTEGER) AS week, 'sku' || lpad(CAST(e AS VARCHAR), 6, '0') AS sku,
		100 + 50 * (hash(e * 7919 + 1) %% 10000) / 10000.0 + (10 + 30 * (hash(e * 7919 + 2) %% 10000) / 10000.0) * sin(2 * pi() * w / 52.0 + 6.283 * (hash(e * 7919 + 3) %% 10000) / 10000.0)
		+ ((hash(e * 7919 + 4) %% 10000) / 10000.0 - 0.5) * 0.4 * w + 8 * ((hash(e * 1000003 + w * 31) %% 10000) / 10000.0 - 0.5) AS units
		FROM range(156) a(w), range(%d) b(e)`, n))
	runtime.GC()
	stop, peak := sampleHeap(os.Getenv("MALLARD_MEM_PROFILE"))
	began := time.Now()
	exec(t, conn, "SELECT count(*) FROM train_gat('sales', model := 'catalogue', entity := 'sku', time := 'week', value := 'units', neighbors := 10, epochs := 2, workers := 2, seed := 1)")
	stop()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d series: train_gat %.1fs, peak live heap %.0f MB (%.1f KB a series), HeapSys %.0f MB",
		n, time.Since(began).Seconds(), float64(*peak)/1e6, float64(*peak)/1e3/float64(n), float64(ms.HeapSys)/1e6)
}

// sampleHeap samples the live heap (as of the last collection) every 20
// ms until stop is called; at each new peak it writes the heap profile,
// which is as of the same collection, to path (when not empty).
func sampleHeap(path string) (stop func(), peak *uint64) {
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	peak = new(uint64)
	began, last := time.Now(), uint64(0)
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
			sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			metrics.Read(sample)
			live := sample[0].Value.Uint64()
			if os.Getenv("MALLARD_MEM_TIMELINE") != "" && live != last {
				fmt.Printf("%6.1fs live %4.0f MB\n", time.Since(began).Seconds(), float64(live)/1e6)
				last = live
			}
			if live > *peak {
				*peak = live
				if path != "" {
					if f, err := os.Create(path); err == nil {
						pprof.Lookup("heap").WriteTo(f, 0)
						f.Close()
					}
				}
			}
		}
	})
	return func() { cancel(); wg.Wait() }, peak
}
