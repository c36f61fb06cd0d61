package gat_test

import (
	"context"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// factorSeries is an n-entity, t-step matrix, the same for the same seed:
// each entity loads on three AR(1) factors and a seasonal one and adds an
// AR(1) noise of its own, so its windows' correlations vary but carry
// structure.
func factorSeries(n, t int, seed uint64) series.Matrix {
	rng := rand.New(rand.NewPCG(seed, 3))
	phi := []float64{0.95, 0.8, 0.5}
	k := len(phi) + 1
	load := make([]float64, n*k)
	for i := range load {
		load[i] = rng.NormFloat64()
	}
	factors, noise := make([]float64, k), make([]float64, n)
	m := series.Matrix{T: t, N: n, Values: make([]float64, t*n)}
	for step := range t {
		for f, p := range phi {
			factors[f] = p*factors[f] + rng.NormFloat64()
		}
		factors[len(phi)] = math.Sin(2 * math.Pi * float64(step) / 24)
		row := m.Row(step)
		for i := range n {
			noise[i] = 0.7*noise[i] + 0.5*rng.NormFloat64()
			v := noise[i]
			for f, x := range factors {
				v += load[i*k+f] * x
			}
			row[i] = v / 3
		}
	}
	return m
}

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
			m := factorSeries(tt.entities, tt.steps, 1)
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
