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

// processTrainer trains process p of a run as coll's member, calling
// report with the epochs (in rank 0's process only).
type processTrainer func(p int, coll parallel.Collective, report func(recommender.Epoch) error) (*recommender.Model, error)

// acrossProcesses runs train as processes x workers, each process a
// goroutine training its own tables, and returns every process's model
// and rank 0's epochs.
func acrossProcesses(t *testing.T, processes, workers int, train processTrainer) ([]*recommender.Model, []recommender.Epoch) {
	t.Helper()
	models := make([]*recommender.Model, processes)
	errs := make([]error, processes)
	var epochs []recommender.Epoch
	var wg sync.WaitGroup
	for p, comm := range parallel.LocalComms(processes) {
		wg.Go(func() {
			models[p], errs[p] = train(p, parallel.NewRanks(comm, workers), func(e recommender.Epoch) error {
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

// spread trains cfg as processes x workers, every process with all the
// ratings, and returns every process's model and rank 0's epochs.
func spread(t *testing.T, cfg recommender.Config, processes, workers int, train, test recommender.Ratings) ([]*recommender.Model, []recommender.Epoch) {
	t.Helper()
	cfg.Workers = processes * workers
	return acrossProcesses(t, processes, workers, func(_ int, coll parallel.Collective, report func(recommender.Epoch) error) (*recommender.Model, error) {
		return recommender.TrainOn(context.Background(), coll, cfg, train, test, recommender.Start{}, report)
	})
}

// checkAsOneProcess trains, for every objective and processes x workers
// of 2x1, 3x1 and 2x2, with run and with as many workers in one process,
// and checks that run gives the same curves to 1e-9 relative and every
// process the same model bit for bit; then it calls weights with the one
// process's model and run's to check the weights as the caller expects.
func checkAsOneProcess(t *testing.T, run func(cfg recommender.Config, processes, workers int, train, test recommender.Ratings) ([]*recommender.Model, []recommender.Epoch),
	weights func(label string, shape [2]int, want *recommender.Model, models []*recommender.Model)) {
	t.Helper()
	train, test := lowRank(5, 300, 120, 3, 0.2, 0.3)
	for _, objective := range recommender.Objectives() {
		cfg := smallConfig()
		cfg.Epochs, cfg.Objective = 3, objective
		if recommender.IsRanking(objective) {
			cfg.Negatives, cfg.Dropout = 40, 0.3
		}
		for _, shape := range [][2]int{{2, 1}, {3, 1}, {2, 2}} {
			label := fmt.Sprintf("%s %dx%d", objective, shape[0], shape[1])
			one := cfg
			one.Workers = shape[0] * shape[1]
			want, wantEpochs := curve(t, one, train, test)
			models, epochs := run(cfg, shape[0], shape[1], train, test)
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
			weights(label, shape, want, models)
		}
	}
}

// TestSpreadOverProcesses checks that workers spread over processes, each
// process with tables of its own, train what as many workers train in one
// process: the same curves to 1e-9 relative, every process the same model
// bit for bit, and the weights one process's to 1e-7 (the processes sum a
// user's vectors by process first: see ownedRows).
func TestSpreadOverProcesses(t *testing.T) {
	checkAsOneProcess(t, func(cfg recommender.Config, processes, workers int, train, test recommender.Ratings) ([]*recommender.Model, []recommender.Epoch) {
		return spread(t, cfg, processes, workers, train, test)
	}, func(label string, _ [2]int, want *recommender.Model, models []*recommender.Model) {
		closeWeights(t, label, want, models[0])
	})
}

// closeWeights checks that got's weights are want's to 1e-7: where the
// workers add the same terms grouped otherwise, Adam's step for a
// gradient near 0 is its sign times lr whatever its size, and a weight
// may differ in a few units of 1e-9.
func closeWeights(t *testing.T, label string, want, got *recommender.Model) {
	t.Helper()
	for k := range want.Weights {
		for i, v := range want.Weights[k] {
			if g := got.Weights[k][i]; math.Abs(g-v) > 1e-7*max(1, math.Abs(v)) {
				t.Fatalf("%s: weight %d of table %d is %.15g, in one process %.15g", label, i, k, g, v)
			}
		}
	}
}
