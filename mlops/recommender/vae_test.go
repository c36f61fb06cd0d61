package recommender_test

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/mallard/mallard/mlops/recommender"
)

// TestKLTerm checks the KL divergence of a diagonal Gaussian from the
// standard one: zero at N(0, I), its closed form at a known point, and its
// gradient with respect to the mean and the log-variance against finite
// differences.
func TestKLTerm(t *testing.T) {
	zero := make([]float64, 3)
	if kl := recommender.KLTerm(zero, zero, nil, nil, 0); kl != 0 {
		t.Errorf("KL(N(0, I) ‖ N(0, I)) = %v, want 0", kl)
	}
	// μ = 1, σ² = e: ½(e + 1 − 1 − 1) = (e − 1)/2.
	if kl, want := recommender.KLTerm([]float64{1}, []float64{1}, nil, nil, 0), (math.E-1)/2; math.Abs(kl-want) > 1e-15 {
		t.Errorf("KL = %v, want %v", kl, want)
	}
	rng := rand.New(rand.NewPCG(4, 2))
	const h = 5
	x := make([]float64, 2*h) // μ, then log σ²
	for i := range x {
		x[i] = 2 * (rng.Float64() - 0.5)
	}
	const scale = 0.7
	grad := make([]float64, 2*h)
	recommender.KLTerm(x[:h], x[h:], grad[:h], grad[h:], scale)
	want := fd.Gradient(nil, func(x []float64) float64 {
		return scale * recommender.KLTerm(x[:h], x[h:], nil, nil, 0)
	}, x, &fd.Settings{Formula: fd.Central, Step: 1e-6})
	if e := gradRelErr(grad, want); e > gradTol || math.IsNaN(e) {
		t.Errorf("relative error %.3g\n got %.6g\nwant %.6g", e, grad, want)
	}
}

// TestVAEGradient checks the whole RankingVAE loss's gradient, the
// multinomial likelihood of the sampled code, the KL term at a weight β
// above 0 and the penalty, against finite differences: exact and sampled
// softmax, with and without dropout, one worker and several.
func TestVAEGradient(t *testing.T) {
	tests := []struct {
		name      string
		hidden    []int
		negatives int
		dropout   float64
		l2        float64
		workers   int
		epoch     int
	}{
		{"exact, one layer", []int{4}, 0, 0, 0, 1, 10},
		{"exact, penalty, two layers", []int{4, 3}, 0, 0, 0.3, 1, 5},
		{"sampled, dropout", []int{5}, 4, 0.5, 0.1, 1, 20},
		{"sampled, two workers", []int{5, 4}, 5, 0.2, 0.2, 2, 30},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, train, m, _ := rankingModel(t, uint64(40+i), tt.hidden)
			cfg.Objective, cfg.AnnealCap = recommender.RankingVAE, 0.5
			cfg.Negatives, cfg.Dropout, cfg.L2, cfg.Workers = tt.negatives, tt.dropout, tt.l2, tt.workers
			m.Config = cfg
			init, err := recommender.InitialModel(cfg, train) // the variational head's weights
			if err != nil {
				t.Fatal(err)
			}
			m.Weights[1] = init.Weights[1]
			for k := range m.Weights[1] {
				m.Weights[1][k] = 0.6 * (rand.New(rand.NewPCG(uint64(k), 9)).Float64() - 0.5)
			}
			if beta, err := recommender.AnnealBeta(cfg, train, tt.epoch, 0); err != nil || !(beta > 0) {
				t.Fatalf("β %v at epoch %d (%v): the KL term would not be checked", beta, tt.epoch, err)
			}
			checkBatchGradientAt(t, cfg, train, []int{0, 1, 2, 3, 4, 5}, m, tt.epoch)
		})
	}
}

// TestVAEAnnealing checks β's schedule: 0 at the first step, rising by
// 1/S a step, S the run's steps, up to the cap.
func TestVAEAnnealing(t *testing.T) {
	train := randomRatings(rand.New(rand.NewPCG(1, 1)), 10, 8, 0.5)
	cfg := recommender.DefaultConfig()
	cfg.Objective, cfg.Hidden, cfg.Relevant, cfg.BatchSize, cfg.Epochs = recommender.RankingVAE, []int{3}, 3, 4, 10
	users := 0
	for u := range train.Users {
		_, vals := train.Row(u)
		for _, v := range vals {
			if v >= 3 {
				users++
				break
			}
		}
	}
	batches := (users + 3) / 4
	steps := float64(cfg.Epochs * batches)
	tests := []struct {
		cap          float64
		epoch, batch int
		want         float64
	}{
		{0.5, 1, 0, 0},
		{0.5, 1, 1, 1 / steps},
		{0.5, 2, 1, float64(batches+1) / steps},
		{0.5, 10, batches - 1, 0.5},
		{1, 10, batches - 1, (steps - 1) / steps},
		{0, 3, 0, math.Min(0.2, float64(2*batches)/steps)}, // the default cap
	}
	for _, tt := range tests {
		cfg.AnnealCap = tt.cap
		got, err := recommender.AnnealBeta(cfg, train, tt.epoch, tt.batch)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("cap %v, epoch %d, batch %d: β %v, want %v", tt.cap, tt.epoch, tt.batch, got, tt.want)
		}
	}
}

// TestAutoNegatives checks AutoNegatives, DefaultRankingVAEConfig's
// negatives: the exact softmax up to ExactSoftmaxItems items and
// SampledNegatives beyond, resolved by a training run, which then trains
// as the exact softmax named outright does and records the resolved value.
func TestAutoNegatives(t *testing.T) {
	auto := recommender.DefaultRankingVAEConfig()
	if auto.Negatives != recommender.AutoNegatives {
		t.Fatalf("DefaultRankingVAEConfig's negatives %d, want AutoNegatives", auto.Negatives)
	}
	for _, tt := range []struct{ negatives, items, want int }{
		{recommender.AutoNegatives, recommender.ExactSoftmaxItems, 0},
		{recommender.AutoNegatives, recommender.ExactSoftmaxItems + 1, recommender.SampledNegatives},
		{recommender.AutoNegatives, 62423, recommender.SampledNegatives}, // the MovieLens-25M shape
		{3000, 100, 3000}, // named outright: kept
		{0, 100000, 0},
	} {
		cfg := auto
		cfg.Negatives = tt.negatives
		if got := cfg.ForItems(tt.items).Negatives; got != tt.want {
			t.Errorf("negatives %d over %d items resolved to %d, want %d", tt.negatives, tt.items, got, tt.want)
		}
	}
	bad := auto
	bad.Negatives = -2
	if err := bad.Validate(); err == nil {
		t.Error("negatives -2 validated")
	}
	train := randomRatings(rand.New(rand.NewPCG(1, 2)), 30, 20, 0.4)
	auto.Hidden, auto.Epochs, auto.Relevant, auto.BatchSize = []int{4}, 2, 3, 8
	exact := auto
	exact.Negatives = 0
	a, err := recommender.Train(context.Background(), auto, train, train, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := recommender.Train(context.Background(), exact, train, train, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Config.Negatives != 0 {
		t.Errorf("the model of AutoNegatives over %d items records negatives %d, want 0", train.Items, a.Config.Negatives)
	}
	if !reflect.DeepEqual(a.Weights, e.Weights) {
		t.Error("AutoNegatives over 20 items trained other weights than the exact softmax")
	}
}
