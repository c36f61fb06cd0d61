package recommender_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/recommender"
)

// rankingModel returns the ranking configuration and a model of random
// weights for random ratings of 6 users and 9 items; interactions are
// the ratings of at least 3.
func rankingModel(t *testing.T, seed uint64, hidden []int) (recommender.Config, recommender.Ratings, *recommender.Model, *rand.Rand) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	train := randomRatings(rng, 6, 9, 0.5)
	cfg := recommender.DefaultConfig()
	cfg.Objective, cfg.Hidden, cfg.Relevant, cfg.Dropout = recommender.Ranking, hidden, 3, 0
	m, err := recommender.InitialModel(cfg, train)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range m.Weights {
		for k := range w {
			w[k] = rng.Float64() - 0.5
		}
	}
	return cfg, train, m, rng
}

// TestMultinomialGradient checks the ranking objective's gradient, exact
// and sampled softmax, with and without dropout (whose mask is fixed by
// the seed, the epoch and the user), against finite differences.
func TestMultinomialGradient(t *testing.T) {
	tests := []struct {
		name      string
		hidden    []int
		negatives int
		dropout   float64
		l2        float64
		workers   int
		batch     []int
	}{
		{"exact", []int{4, 3, 5}, 0, 0, 0, 1, []int{0, 2, 3, 5}},
		{"exact, penalty", []int{4, 3}, 0, 0, 0.3, 1, []int{1, 0, 4}},
		{"sampled", []int{4, 3, 5}, 4, 0, 0, 1, []int{0, 1, 2, 3, 4, 5}},
		{"sampled, penalty, two workers", []int{5, 4}, 5, 0, 0.2, 2, []int{5, 4, 3, 2, 1, 0}},
		{"sampled, dropout", []int{4}, 6, 0.5, 0.1, 1, []int{0, 1, 2, 3, 4, 5}},
		{"exact, dropout, three workers", []int{3, 4}, 0, 0.3, 0.05, 3, []int{0, 1, 2, 3, 4, 5}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, train, m, _ := rankingModel(t, uint64(i), tt.hidden)
			cfg.Negatives, cfg.Dropout, cfg.L2, cfg.Workers = tt.negatives, tt.dropout, tt.l2, tt.workers
			checkBatchGradient(t, cfg, train, tt.batch, m)
		})
	}
}

// TestMultinomialLoss checks the exact softmax's loss without dropout or
// penalty against the probabilities Scores serves: the mean over the
// batch's users of −Σ log p_i over each one's interactions. The
// probabilities sum to 1 for every user.
func TestMultinomialLoss(t *testing.T) {
	cfg, train, m, _ := rankingModel(t, 3, []int{4, 3, 5})
	cfg.L2 = 0
	batch := []int{0, 1, 2, 3, 4, 5}
	got, _, err := recommender.BatchGradient(cfg, train, batch, m)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	p := make([]float64, train.Items)
	for _, u := range batch {
		items, vals := train.Row(u)
		m.Scores(items, vals, p)
		var total float64
		for _, v := range p {
			total += v
		}
		if math.Abs(total-1) > 1e-12 {
			t.Errorf("user %d: the probabilities sum to %v", u, total)
		}
		for i, j := range items {
			if vals[i] >= 3 {
				want -= math.Log(p[j])
			}
		}
	}
	want /= float64(len(batch))
	if math.Abs(got-want) > 1e-12*want {
		t.Errorf("loss %.15g, want %.15g", got, want)
	}
}

// TestSampledLossEstimates checks that the sampled softmax's loss tends to
// the exact one as the negatives grow: with 100 draws of some 200 items,
// its mean over seeds is within a few percent of the exact loss, and
// nearer than with 10 draws.
func TestSampledLossEstimates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	train := randomRatings(rng, 40, 200, 0.1)
	cfg := recommender.DefaultConfig()
	cfg.Objective, cfg.Hidden, cfg.Relevant, cfg.Dropout, cfg.L2 = recommender.Ranking, []int{6}, 3, 0, 0
	m, err := recommender.InitialModel(cfg, train)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range m.Weights {
		for k := range w {
			w[k] = 2 * (rng.Float64() - 0.5)
		}
	}
	batch := make([]int, train.Users)
	for u := range batch {
		batch[u] = u
	}
	exact, _, err := recommender.BatchGradient(cfg, train, batch, m)
	if err != nil {
		t.Fatal(err)
	}
	gap := func(k int) float64 {
		var mean float64
		for seed := range 20 {
			cfg.Negatives, cfg.Seed = k, uint64(seed)
			l, _, err := recommender.BatchGradient(cfg, train, batch, m)
			if err != nil {
				t.Fatal(err)
			}
			mean += l / 20
		}
		return math.Abs(mean-exact) / exact
	}
	few, many := gap(10), gap(100)
	t.Logf("exact loss %.4g; relative gap of the mean sampled loss: %.4g with 10 negatives, %.4g with 100", exact, few, many)
	if many > 0.03 || many >= few {
		t.Errorf("relative gap to the exact loss %.4g: %.4g with 10 negatives, %.4g with 100", exact, few, many)
	}
}

// TestRankingWorkersAgree checks that the ranking objective, sampled and
// with dropout, depends on the number of workers only through the order of
// floating-point sums: the negatives and the dropout masks do not depend
// on who draws them, and rows stepped ahead step alike.
func TestRankingWorkersAgree(t *testing.T) {
	train, test := lowRank(7, 300, 120, 3, 0.2, 0.3)
	cfg := smallConfig()
	cfg.Objective, cfg.Relevant, cfg.Dropout, cfg.Negatives = recommender.Ranking, 3.5, 0.5, 40
	_, one := curve(t, cfg, train, test)
	for _, workers := range []int{2, 3} {
		cfg.Workers = workers
		_, many := curve(t, cfg, train, test)
		var skewed []recommender.Epoch
		if _, _, err := recommender.TrainSkewed(cfg, train, test, 200*time.Microsecond, func(e recommender.Epoch) error {
			skewed = append(skewed, e)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i := range one {
			for _, e := range []recommender.Epoch{many[i], skewed[i]} {
				if rel := math.Abs(e.TrainLoss-one[i].TrainLoss) / one[i].TrainLoss; !(rel <= 1e-9) || !math.IsNaN(e.TrainRMSE) {
					t.Errorf("%d workers, epoch %d: train loss %.15g, one worker %.15g; train RMSE %v", workers, e.Epoch, e.TrainLoss, one[i].TrainLoss, e.TrainRMSE)
				}
			}
		}
	}
	if first, last := one[0].TrainLoss, one[len(one)-1].TrainLoss; !(last < first) {
		t.Errorf("the training loss went from %v to %v", first, last)
	}
}
