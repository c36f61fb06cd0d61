package classifier_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

// blobs returns n rows of d features in k Gaussian clusters, the label of
// a row its cluster.
func blobs(seed uint64, n, d, k int, spread float64) classifier.Data {
	rng := rand.New(rand.NewPCG(seed, 99))
	centres := make([]float64, k*d)
	for i := range centres {
		centres[i] = 3 * rng.NormFloat64()
	}
	data := classifier.Data{Rows: n, X: make([]float64, n*d), Labels: make([]int, n)}
	for i := range n {
		c := rng.IntN(k)
		data.Labels[i] = c
		for j := range d {
			data.X[i*d+j] = centres[c*d+j] + spread*rng.NormFloat64()
		}
	}
	return data
}

// curve trains and returns every epoch's report.
func curve(t *testing.T, net classifier.Network, cfg classifier.Config, train, val classifier.Data) ([]classifier.Epoch, []float64) {
	t.Helper()
	var es []classifier.Epoch
	w, err := classifier.Train(context.Background(), net, cfg, train, val, func(e classifier.Epoch) error {
		es = append(es, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return es, w
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) || a == b || math.IsNaN(a) && math.IsNaN(b)
}

func TestWorkersFollowOneWorker(t *testing.T) {
	img := blobs(1, 90, 2*6*6, 3, 2)
	tests := []struct {
		name string
		net  classifier.Network
		data classifier.Data
		opt  string
	}{
		{"mlp adam", classifier.Network{Arch: classifier.MLP([]int{16, 8}, 0.3, 3), H: 1, W: 1, C: 5}, blobs(2, 203, 5, 3, 2), classifier.OptimizerAdam},
		{"cnn sgd", classifier.Network{Arch: classifier.DefaultCNN(3), H: 6, W: 6, C: 2}, img, classifier.OptimizerSGD},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := classifier.DefaultConfig()
			cfg.Epochs, cfg.BatchSize, cfg.Optimizer, cfg.LR, cfg.WeightDecay, cfg.Patience = 4, 16, tt.opt, 0.01, 1e-3, 0
			val := blobs(3, 41, tt.net.H*tt.net.W*tt.net.C, 3, 2)
			one, w1 := curve(t, tt.net, cfg, tt.data, val)
			for _, workers := range []int{2, 3} {
				cfg.Workers = workers
				many, wn := curve(t, tt.net, cfg, tt.data, val)
				for i := range one {
					if !relClose(one[i].TrainLoss, many[i].TrainLoss, 1e-9) || !relClose(one[i].ValLoss, many[i].ValLoss, 1e-9) || one[i].ValAccuracy != many[i].ValAccuracy {
						t.Errorf("%d workers, epoch %d: %+v, one worker %+v", workers, i+1, many[i], one[i])
					}
				}
				for i := range w1 {
					if !relClose(w1[i], wn[i], 1e-7) && math.Abs(w1[i]-wn[i]) > 1e-12 {
						t.Fatalf("%d workers: weight %d = %v, one worker %v", workers, i, wn[i], w1[i])
					}
				}
			}
			if one[len(one)-1].TrainLoss >= one[0].TrainLoss {
				t.Errorf("training loss did not fall: %+v", one)
			}
		})
	}
}

func TestEarlyStoppingKeepsBest(t *testing.T) {
	// A large learning rate makes the validation loss rise after the first
	// epochs; training stops after Patience epochs without improvement and
	// returns the best epoch's weights.
	train, val := blobs(4, 200, 4, 2, 3), blobs(5, 100, 4, 2, 3)
	net := classifier.Network{Arch: classifier.MLP([]int{32}, 0, 2), H: 1, W: 1, C: 4}
	cfg := classifier.DefaultConfig()
	cfg.Epochs, cfg.Patience, cfg.LR = 200, 2, 0.05
	es, _ := curve(t, net, cfg, train, val)
	if len(es) == cfg.Epochs {
		t.Fatalf("ran all %d epochs", cfg.Epochs)
	}
	best := 0
	for i, e := range es {
		if e.ValLoss < es[best].ValLoss {
			best = i
		}
	}
	if len(es)-1-best != cfg.Patience {
		t.Errorf("stopped %d epochs after the best (epoch %d), want %d", len(es)-1-best, best+1, cfg.Patience)
	}
}

func TestReportStops(t *testing.T) {
	train := blobs(6, 50, 3, 2, 1)
	n := 0
	_, err := classifier.Train(context.Background(), classifier.Network{Arch: classifier.Linear(2), H: 1, W: 1, C: 3},
		classifier.DefaultConfig(), train, classifier.Data{}, func(classifier.Epoch) error {
			n++
			if n == 2 {
				return classifier.ErrStopped
			}
			return nil
		})
	if err != nil || n != 2 {
		t.Errorf("stopped after %d epochs with %v, want 2 and no error", n, err)
	}
	boom := errors.New("boom")
	_, err = classifier.Train(context.Background(), classifier.Network{Arch: classifier.Linear(2), H: 1, W: 1, C: 3},
		classifier.DefaultConfig(), train, classifier.Data{}, func(classifier.Epoch) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want the report's", err)
	}
}

func TestRegressionFitsLine(t *testing.T) {
	// y = 2·x0 − x1 + 0.5: linear regression by SGD reaches an RMSE near 0.
	rng := rand.New(rand.NewPCG(7, 7))
	mk := func(n int) classifier.Data {
		d := classifier.Data{Rows: n, X: make([]float64, 2*n), Targets: make([]float64, n)}
		for i := range n {
			a, b := rng.NormFloat64(), rng.NormFloat64()
			d.X[2*i], d.X[2*i+1], d.Targets[i] = a, b, 2*a-b+0.5
		}
		return d
	}
	cfg := classifier.DefaultConfig()
	cfg.Optimizer, cfg.LR, cfg.Epochs, cfg.BatchSize = classifier.OptimizerSGD, 0.05, 30, 16
	es, w := curve(t, classifier.Network{Arch: classifier.Linear(1), H: 1, W: 1, C: 2, Regression: true}, cfg, mk(300), mk(100))
	if last := es[len(es)-1]; !(last.ValRMSE < 1e-3) {
		t.Errorf("validation RMSE %v, want < 1e-3", last.ValRMSE)
	}
	want := []float64{2, -1, 0.5}
	for i := range want {
		if math.Abs(w[i]-want[i]) > 1e-3 {
			t.Errorf("weights %v, want %v", w, want)
			break
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*classifier.Config)
	}{
		{"epochs", func(c *classifier.Config) { c.Epochs = 0 }},
		{"optimizer", func(c *classifier.Config) { c.Optimizer = "rmsprop" }},
		{"lr", func(c *classifier.Config) { c.LR = math.NaN() }},
		{"workers", func(c *classifier.Config) { c.Workers = 65 }},
		{"momentum", func(c *classifier.Config) { c.Momentum = 1 }},
	}
	for _, tt := range tests {
		cfg := classifier.DefaultConfig()
		tt.edit(&cfg)
		if cfg.Validate() == nil {
			t.Errorf("%s: %+v accepted", tt.name, cfg)
		}
	}
	if err := classifier.DefaultConfig().Validate(); err != nil {
		t.Error(err)
	}
}

// TestTrainFromFollowsTheRun stops a run after epoch 3 and goes on from
// its state: epochs 4 to 8 and the final weights are those of the run
// that did not stop, to the bit (Adam, dropout, early stopping's state).
func TestTrainFromFollowsTheRun(t *testing.T) {
	train, val := blobs(1, 120, 4, 3, 1.5), blobs(2, 40, 4, 3, 1.5)
	net := classifier.Network{Arch: classifier.MLP([]int{8}, 0.2, 3), H: 1, W: 1, C: 4}
	cfg := classifier.DefaultConfig()
	cfg.Epochs, cfg.BatchSize, cfg.Patience = 8, 16, 0
	whole, wWhole := curve(t, net, cfg, train, val)
	var state *classifier.State
	_, err := classifier.Train(context.Background(), net, cfg, train, val, func(e classifier.Epoch) error {
		if e.Epoch == 3 {
			state = e.State()
			return classifier.ErrStopped
		}
		return nil
	})
	if err != nil || state == nil || state.Epoch != 3 {
		t.Fatalf("stopped run: %v, state %+v", err, state)
	}
	var rest []classifier.Epoch
	w, err := classifier.TrainFrom(context.Background(), net, cfg, train, val, state, func(e classifier.Epoch) error {
		rest = append(rest, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rest) != 5 || rest[0].Epoch != 4 {
		t.Fatalf("resumed epochs %d from %d, want 5 from 4", len(rest), rest[0].Epoch)
	}
	for i, e := range rest {
		if want := whole[i+3]; e.TrainLoss != want.TrainLoss || e.ValLoss != want.ValLoss {
			t.Errorf("epoch %d: losses %g/%g, the whole run's %g/%g", e.Epoch, e.TrainLoss, e.ValLoss, want.TrainLoss, want.ValLoss)
		}
	}
	if !slices.Equal(w, wWhole) {
		t.Error("the resumed run's weights differ from the whole run's")
	}
}
