package gat_test

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/series"
)

// part is process p's part of m under s: the rows it holds, NaN elsewhere,
// and the anchor's forecasts of its targets, NaN elsewhere.
func part(t *testing.T, cfg gat.Config, m series.Matrix, pre []float64, s gat.Shard, p int) (series.Matrix, []float64, []int) {
	t.Helper()
	rows, targets, err := s.Held(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	out := gat.NaNMatrix(m.T, m.N)
	for _, r := range rows {
		copy(out.Values[r*m.N:(r+1)*m.N], m.Row(r))
	}
	var own []float64
	if pre != nil {
		own = gat.NaNMatrix(len(pre)/m.N, m.N).Values
		from := m.T - len(pre)/m.N
		for _, r := range targets {
			copy(own[(r-from)*m.N:(r-from+1)*m.N], pre[(r-from)*m.N:(r-from+1)*m.N])
		}
	}
	return out, own, rows
}

// shardedGAT trains cfg as processes x workers, each process holding only
// its own samples' rows, and returns every process's model, rank 0's
// epochs and the rows each process held.
func shardedGAT(t *testing.T, cfg gat.Config, m series.Matrix, processes, workers int) ([]*gat.Model, []gat.Epoch, [][]int) {
	t.Helper()
	cfg.Workers = processes * workers
	start, pre, err := gat.Prepare(cfg, m, gat.Start{})
	if err != nil {
		t.Fatal(err)
	}
	s := gat.ShardOf(m, processes)
	models, errs, held := make([]*gat.Model, processes), make([]error, processes), make([][]int, processes)
	var epochs []gat.Epoch
	var wg sync.WaitGroup
	for p, comm := range parallel.LocalComms(processes) {
		mp, prep, rows := part(t, cfg, m, pre, s, p)
		held[p] = rows
		wg.Go(func() {
			models[p], errs[p] = gat.TrainShard(context.Background(), parallel.NewRanks(comm, workers), cfg, mp, prep, s, start, func(e gat.Epoch) error {
				epochs = append(epochs, e) // rank 0's process only
				return nil
			})
		})
	}
	wg.Wait()
	for p, err := range errs {
		if err != nil {
			t.Fatalf("process %d: %v", p, err)
		}
	}
	return models, epochs, held
}

// TestShardedProcesses checks that processes that each hold only their
// own samples' rows (the others NaN, which any read of them would spread
// to the losses) train what as many workers train in one process that
// holds every row: the same curves to 1e-9 relative, every process the
// same model bit for bit, for anchors fitted over every row (the last
// value with the highway's least-squares fit, ets, whose forecasts read
// every row before them, and auto);
// that each holds less than every row and together they hold every row
// a sample reads; and that a shard of another number of processes is
// refused.
func TestShardedProcesses(t *testing.T) {
	m := series.Synthetic(6, 120, 3, 12)
	for _, anchor := range []string{gat.AnchorLastValue, "ets", gat.AnchorAuto} {
		for _, shape := range [][2]int{{2, 1}, {3, 1}, {2, 2}} {
			cfg := gat.DefaultConfig()
			cfg.Epochs, cfg.Hidden, cfg.BatchSize, cfg.Seed, cfg.Anchor, cfg.Season, cfg.Patience = 6, []int{8, 8}, 16, 9, anchor, 12, 0
			cfg.Workers = shape[0] * shape[1]
			var want []gat.Epoch
			if _, err := gat.TrainOn(context.Background(), parallel.NewLocal(cfg.Workers), cfg, m, gat.Start{}, func(e gat.Epoch) error {
				want = append(want, e)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			models, got, held := shardedGAT(t, cfg, m, shape[0], shape[1])
			label := anchor + " " + string(rune('0'+shape[0])) + "x" + string(rune('0'+shape[1]))
			if len(got) != len(want) {
				t.Fatalf("%s: %d epochs, one process %d", label, len(got), len(want))
			}
			for i := range want {
				for k, pair := range [][2]float64{{want[i].TrainMSE, got[i].TrainMSE}, {want[i].ValMSE, got[i].ValMSE}, {want[i].TestMSE, got[i].TestMSE}} {
					if !(math.Abs(pair[0]-pair[1]) <= 1e-9*math.Abs(pair[0])) {
						t.Errorf("%s: epoch %d, MSE %d: one process %v, sharded %v", label, want[i].Epoch, k, pair[0], pair[1])
					}
				}
			}
			for p, model := range models[1:] {
				for i := range model.Weights {
					if !slices.Equal(model.Weights[i], models[0].Weights[i]) {
						t.Fatalf("%s: process %d's weights differ from process 0's", label, p+1)
					}
				}
			}
			var all []int
			for p, rows := range held {
				if len(rows) >= m.T {
					t.Errorf("%s: process %d holds %d of %d rows", label, p, len(rows), m.T)
				}
				all = append(all, rows...)
			}
			slices.Sort(all)
			if all = slices.Compact(all); len(all) != m.T {
				t.Errorf("%s: the processes hold %d of %d rows together", label, len(all), m.T)
			}
		}
	}
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Workers = 1, 2
	start, pre, err := gat.Prepare(cfg, m, gat.Start{})
	if err != nil {
		t.Fatal(err)
	}
	s := gat.ShardOf(m, 3)
	for _, comm := range parallel.LocalComms(1) {
		if _, err := gat.TrainShard(context.Background(), parallel.NewRanks(comm, 2), cfg, m, pre, s, start, nil); err == nil {
			t.Errorf("a shard of 3 processes trained in 1 of 2 workers")
		}
	}
}
