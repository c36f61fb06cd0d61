package recommender_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"

	"github.com/mallard/mallard/mlops/recommender"
)

// gradTol is the largest relative error the gradient checks accept.
const gradTol = 1e-6

// gradRelErr is ‖a−b‖₂ / max(1e-8, ‖a‖₂+‖b‖₂), as in mlops/nn's checks.
func gradRelErr(a, b []float64) float64 {
	diff := make([]float64, len(a))
	floats.SubTo(diff, a, b)
	return floats.Norm(diff, 2) / math.Max(1e-8, floats.Norm(a, 2)+floats.Norm(b, 2))
}

// randomRatings returns users x items ratings where each user rates each
// item with probability density, on the half-star scale 0.5 to 5; every
// user rates at least one item and someone gives 0.5, the input zero.
func randomRatings(rng *rand.Rand, users, items int, density float64) recommender.Ratings {
	b := recommender.NewBuilder(recommender.DuplicatesError)
	for u := range users {
		rated := false
		for j := range items {
			if rng.Float64() < density || !rated && j == items-1 {
				rating := 0.5 * float64(1+rng.IntN(10))
				if u == 0 && !rated {
					rating = 0.5
				}
				if err := b.Add(recommender.Int(int64(u)), recommender.Int(int64(j)), rating); err != nil {
					panic(err)
				}
				rated = true
			}
		}
	}
	r, err := b.Finish()
	if err != nil {
		panic(err)
	}
	return r
}

func TestGradient(t *testing.T) {
	tests := []struct {
		name      string
		hidden    []int
		act, out  string
		l2        float64
		workers   int
		optimizer string
		batch     []int
	}{
		{"published activations", []int{4, 3, 5}, "relu", "sigmoid", 0, 1, "adam", []int{0, 2, 3, 5}},
		{"penalty", []int{4, 3, 5}, "relu", "sigmoid", 0.3, 1, "adam", []int{1, 0, 4}},
		{"two workers", []int{4, 3, 5}, "tanh", "identity", 0.1, 2, "adam", []int{5, 4, 3, 2, 1, 0}},
		{"three workers", []int{3, 4}, "elu", "sigmoid", 0.05, 3, "sgd", []int{0, 1, 2, 3, 4, 5}},
		{"one hidden layer", []int{5}, "sigmoid", "identity", 0.2, 1, "adam", []int{2, 4}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			train := randomRatings(rng, 6, 9, 0.4)
			cfg := recommender.DefaultConfig()
			cfg.Hidden, cfg.Activation, cfg.Output = tt.hidden, tt.act, tt.out
			cfg.L2, cfg.Workers, cfg.Optimizer = tt.l2, tt.workers, tt.optimizer
			m, err := recommender.InitialModel(cfg, train)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range m.Weights {
				for k := range w {
					w[k] = rng.Float64() - 0.5
				}
			}
			checkBatchGradient(t, cfg, train, tt.batch, m)
		})
	}
}

// checkBatchGradient compares BatchGradient's gradient of every weight
// tensor of m with central finite differences of its loss.
func checkBatchGradient(t *testing.T, cfg recommender.Config, train recommender.Ratings, batch []int, m *recommender.Model) {
	t.Helper()
	checkBatchGradientAt(t, cfg, train, batch, m, 0)
}

// checkBatchGradientAt is checkBatchGradient in the first batch of epoch.
func checkBatchGradientAt(t *testing.T, cfg recommender.Config, train recommender.Ratings, batch []int, m *recommender.Model, epoch int) {
	t.Helper()
	_, grad, err := recommender.BatchGradientAt(cfg, train, batch, m, epoch)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range m.Weights {
		loss := func(x []float64) float64 {
			saved := append([]float64(nil), w...)
			copy(w, x)
			l, _, err := recommender.BatchGradientAt(cfg, train, batch, m, epoch)
			copy(w, saved)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		want := fd.Gradient(nil, loss, append([]float64(nil), w...), &fd.Settings{Formula: fd.Central, Step: 1e-6})
		if e := gradRelErr(grad[k], want); e > gradTol || math.IsNaN(e) {
			t.Errorf("weights %d: relative error %.3g\n got %.6g\nwant %.6g", k, e, grad[k], want)
		}
	}
}
