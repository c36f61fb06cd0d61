package gat_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// BenchmarkEpochScale times, for profiling without the server, the
// second epoch of training with 2 workers (the first builds the
// neighbour-limited graphs that the later ones reuse) at 1,000 entities x
// 3,000 steps with 10 neighbours and at 200 x 1,000 with the full graph,
// and logs the process's user and system CPU time over the whole run:
//
//	go test -run '^$' -bench EpochScale -benchtime 1x -cpuprofile cpu.out ./mlops/gat/
func BenchmarkEpochScale(b *testing.B) {
	for _, tt := range []struct {
		name                 string
		entities, steps, knn int
	}{{"1000x3000_k10", 1000, 3000, 10}, {"200x1000_full", 200, 1000, 0}} {
		b.Run(tt.name, func(b *testing.B) {
			m := series.Synthetic(tt.entities, tt.steps, 1, 24)
			cfg := gat.DefaultConfig()
			cfg.Epochs, cfg.Neighbors, cfg.Workers, cfg.Patience = 2, tt.knn, 2, 0
			for range b.N {
				var elapsed []time.Duration
				var before, after syscall.Rusage
				syscall.Getrusage(syscall.RUSAGE_SELF, &before)
				_, err := gat.Train(context.Background(), cfg, m, func(e gat.Epoch) error { elapsed = append(elapsed, e.Elapsed); return nil })
				syscall.Getrusage(syscall.RUSAGE_SELF, &after)
				if err != nil {
					b.Fatal(err)
				}
				epoch := elapsed[1] - elapsed[0]
				b.ReportMetric(epoch.Seconds(), "s/epoch")
				b.Logf("epochs %v; second %v; cpu user %v sys %v", elapsed, epoch,
					time.Duration(after.Utime.Nano()-before.Utime.Nano()), time.Duration(after.Stime.Nano()-before.Stime.Nano()))
			}
		})
	}
}
