package recommender_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// lowRank returns ratings r = clip(3 + u·v + noise, 1, 5) of users and
// items with rank-dimensional factors, each pair rated with probability
// density, split 90/10.
func lowRank(seed uint64, users, items, rank int, density, noise float64) (train, test recommender.Ratings) {
	rng := rand.New(rand.NewPCG(seed, 3))
	factors := func(n int) [][]float64 {
		f := make([][]float64, n)
		for i := range f {
			for range rank {
				f[i] = append(f[i], rng.NormFloat64()/math.Sqrt(float64(rank)))
			}
		}
		return f
	}
	uf, vf := factors(users), factors(items)
	b := recommender.NewBuilder(recommender.DuplicatesError)
	for u := range users {
		for j := range items {
			if rng.Float64() >= density {
				continue
			}
			r := 3 + noise*rng.NormFloat64()
			for k := range rank {
				r += 1.5 * uf[u][k] * vf[j][k]
			}
			if err := b.Add(recommender.Int(int64(u)), recommender.Int(int64(j)), min(max(r, 1), 5)); err != nil {
				panic(err)
			}
		}
	}
	all, err := b.Finish()
	if err != nil {
		panic(err)
	}
	return recommender.Split(all, 0.1, seed)
}

// TestLowRankBeatsItemMean trains on ratings that are a rank-3 function
// of user and item plus noise of 0.2: the item means miss the users'
// tastes (RMSE about 0.8), which the model must capture.
func TestLowRankBeatsItemMean(t *testing.T) {
	train, test := lowRank(1, 400, 150, 3, 0.25, 0.2)
	cfg := recommender.DefaultConfig()
	cfg.Hidden, cfg.Epochs, cfg.LR, cfg.BatchSize = []int{32, 8, 32}, 40, 0.005, 16
	m, err := recommender.Train(context.Background(), cfg, train, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := recommender.Evaluate(context.Background(), m, train, test, 0)
	if err != nil {
		t.Fatal(err)
	}
	model, means := ms[0], ms[1]
	t.Logf("model %+v, item means %+v", model, means)
	if model.RMSE > 0.5*means.RMSE || model.RecallAt10 <= means.RecallAt10 || model.NDCGAt10 <= means.NDCGAt10 {
		t.Errorf("the model (%+v) does not clearly beat the item means (%+v)", model, means)
	}
}
