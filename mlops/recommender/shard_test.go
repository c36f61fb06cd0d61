package recommender_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/recommender"
)

// sharded trains cfg as processes x workers as spread does, but each
// process holds only its own users' ratings (Shard.Part) and the Shard of
// every rating; it returns every process's model and rank 0's epochs.
func sharded(t *testing.T, cfg recommender.Config, processes, workers int, train, test recommender.Ratings) ([]*recommender.Model, []recommender.Epoch) {
	t.Helper()
	cfg.Workers = processes * workers
	s := recommender.ShardOf(cfg, train, test, processes)
	models := make([]*recommender.Model, processes)
	errs := make([]error, processes)
	var epochs []recommender.Epoch
	var wg sync.WaitGroup
	for p, comm := range parallel.LocalComms(processes) {
		wg.Go(func() {
			coll := parallel.NewRanks(comm, workers)
			models[p], errs[p] = recommender.TrainShard(context.Background(), coll, cfg, s.Part(train, p), s.Part(test, p), &s, func(e recommender.Epoch) error {
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
	return models, epochs
}

// TestShardedProcesses checks that processes that each hold only their
// own users' ratings train what as many workers train in one process that
// holds them all: the same curves to 1e-9 relative and every process the
// same model bit for bit, the weights one process's to 1e-7, for both
// objectives; and that a Shard made for
// another number of processes is refused.
func TestShardedProcesses(t *testing.T) {
	train, test := lowRank(5, 300, 120, 3, 0.2, 0.3)
	for _, objective := range []string{recommender.Rating, recommender.Ranking} {
		cfg := smallConfig()
		cfg.Epochs, cfg.Objective = 3, objective
		if objective == recommender.Ranking {
			cfg.Negatives = 40
		}
		for _, shape := range [][2]int{{2, 1}, {3, 1}, {2, 2}} {
			label := fmt.Sprintf("%s %dx%d", objective, shape[0], shape[1])
			one := cfg
			one.Workers = shape[0] * shape[1]
			want, wantEpochs := curve(t, one, train, test)
			models, epochs := sharded(t, cfg, shape[0], shape[1], train, test)
			if len(epochs) != len(wantEpochs) {
				t.Fatalf("%s: %d epochs, want %d", label, len(epochs), len(wantEpochs))
			}
			for i, e := range epochs {
				w := wantEpochs[i]
				for name, pair := range map[string][2]float64{"train_rmse": {e.TrainRMSE, w.TrainRMSE}, "test_rmse": {e.TestRMSE, w.TestRMSE},
					"loss": {e.TrainLoss, w.TrainLoss}, "recall": {e.RecallAt10, w.RecallAt10}, "ndcg": {e.NDCGAt10, w.NDCGAt10}} {
					if math.IsNaN(pair[1]) && math.IsNaN(pair[0]) {
						continue
					}
					if rel := math.Abs(pair[0]-pair[1]) / math.Abs(pair[1]); !(rel <= 1e-9) {
						t.Errorf("%s epoch %d %s: %.15g, in one process %.15g", label, e.Epoch, name, pair[0], pair[1])
					}
				}
			}
			for p, m := range models {
				if !reflect.DeepEqual(m.Weights, models[0].Weights) {
					t.Errorf("%s: process %d's weights differ from process 0's", label, p)
				}
			}
			// The workers add the same terms grouped otherwise, and Adam's
			// step for a gradient near 0 is its sign times lr whatever its
			// size: a weight may differ in a few units of 1e-9.
			for k := range want.Weights {
				for i, v := range want.Weights[k] {
					if got := models[0].Weights[k][i]; math.Abs(got-v) > 1e-7*max(1, math.Abs(v)) {
						t.Fatalf("%s: weight %d of table %d is %.15g, in one process %.15g", label, i, k, got, v)
					}
				}
			}
		}
	}
	cfg := smallConfig()
	cfg.Workers = 2
	s := recommender.ShardOf(cfg, train, test, 3)
	for _, comm := range parallel.LocalComms(1) {
		_, err := recommender.TrainShard(context.Background(), parallel.NewRanks(comm, 2), cfg, s.Part(train, 0), s.Part(test, 0), &s, nil)
		if err == nil {
			t.Errorf("a shard of 3 processes trained in 1 of 2 workers")
		}
	}
}
