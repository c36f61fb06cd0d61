package recommender_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// TestModelPopular checks the fallback of each objective on ratings where
// the most rated item is not the most chosen: item 0 is rated by three
// users, twice below relevant; item 2 by two, both at or above it.
func TestModelPopular(t *testing.T) {
	train := recommender.Ratings{Users: 3, Items: 3, Ptr: []int{0, 2, 4, 5},
		Item: []int32{0, 2, 0, 2, 0}, Value: []float32{1, 5, 2, 4, 4}}
	test := recommender.Ratings{Users: 3, Items: 3, Ptr: []int{0, 0, 1, 1}, Item: []int32{1}, Value: []float32{3}}
	for _, tc := range []struct {
		objective string
		want      []recommender.Scored
	}{
		// Rating: by number of ratings, scored by the damped mean (global
		// mean 19/6, five prior ratings at it).
		{recommender.Rating, []recommender.Scored{{Item: 0, Score: (7 + 5*19.0/6) / 8}, {Item: 2, Score: (9 + 5*19.0/6) / 7},
			{Item: 1, Score: (3 + 5*19.0/6) / 6}}},
		// Ranking: by interactions (ratings of at least 4), scored by their
		// share; item 1's test rating is below relevant.
		{recommender.Ranking, []recommender.Scored{{Item: 2, Score: 2.0 / 3}, {Item: 0, Score: 1.0 / 3}, {Item: 1, Score: 0}}},
	} {
		cfg := recommender.DefaultConfig()
		cfg.Objective, cfg.Hidden = tc.objective, []int{2}
		m, err := recommender.InitialModel(cfg, train)
		if err != nil {
			t.Fatal(err)
		}
		got := m.Popular(train, test)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %v, want %v", tc.objective, got, tc.want)
		}
		for i, w := range tc.want {
			if got[i].Item != w.Item || math.Abs(got[i].Score-w.Score) > 1e-12 {
				t.Errorf("%s: %v, want %v", tc.objective, got, tc.want)
				break
			}
		}
	}
}

// sorted is the k best of scores by a sort of every item, best first, ties
// to the lower index, the items of seen left out with exclude.
func sorted(scores []float64, seen []int32, k int, exclude bool) []recommender.Scored {
	var all []recommender.Scored
	for j, s := range scores {
		if !exclude || !slices.Contains(seen, int32(j)) {
			all = append(all, recommender.Scored{Item: j, Score: s})
		}
	}
	slices.SortStableFunc(all, func(a, b recommender.Scored) int { return cmp.Compare(b.Score, a.Score) })
	return all[:min(k, len(all))]
}

// sameRanking is what is wrong with got against want: items that differ,
// or scores that differ, by more than a relative 10⁻⁶ where near is set
// (the ranking objective's probabilities), else at all.
func sameRanking(got, want []recommender.Scored, near bool) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d items, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Item != w.Item || !near && g.Score != w.Score || near && math.Abs(g.Score-w.Score) > 1e-6*math.Abs(w.Score) {
			return fmt.Sprintf("at %d: %+v, want %+v", i, g, w)
		}
	}
	return ""
}

// TestRecommendMatchesReference checks Scores and Recommend of each
// objective's network, scored in chunks on several goroutines, against
// ReferenceScores and a sort of every item: the same items in the same
// order, the scores the same (but for the ranking objective's, whose
// softmax normaliser Recommend sums over float32 outputs, within a
// relative 10⁻⁶), Scores' value for value. 20,011 items
// (chunks of a multiple of 4 rows and a shorter last one), random
// weights, users of no, one and many ratings, ties made by giving a run
// of items the same decoder row, and near-ties by giving another run rows
// that float32 does not tell apart from it (which Recommend's float32
// pass must leave to its exact one).
func TestRecommendMatchesReference(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const items = 20011
	train := shaped(3, 20, items, 2000)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, cfg := range []recommender.Config{recommender.DefaultConfig(), recommender.DefaultRankingConfig(), recommender.DefaultRankingVAEConfig()} {
		cfg.Hidden = []int{16}
		m, err := recommender.InitialModel(cfg, train)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range m.Weights {
			for i := range w {
				w[i] = rng.NormFloat64() * 0.3
			}
		}
		dec, h := m.Weights[2], cfg.Hidden[0]+1
		dec[100*h+h-1] = 3           // a bias that puts item 100 among the first
		for j := 101; j < 180; j++ { // and items 101 to 139 tie with it
			copy(dec[j*h:(j+1)*h], dec[100*h:101*h])
			for i := range h - 1 {
				if j >= 140 { // items 140 to 179 differ from it by less than float32 resolves
					dec[j*h+i] *= 1 + 1e-7*rng.NormFloat64()
				}
			}
		}
		scores := make([]float64, items)
		for u := range train.Users {
			rated, vals := train.Row(u)
			switch u {
			case 0:
				rated, vals = nil, nil
			case 1:
				rated, vals = rated[:1], vals[:1]
			}
			m.Scores(rated, vals, scores)
			want := m.ReferenceScores(rated, vals)
			for j := range want {
				if math.Float64bits(scores[j]) != math.Float64bits(want[j]) {
					t.Fatalf("%s, user %d: item %d scores %v, want %v", cfg.Objective, u, j, scores[j], want[j])
				}
			}
			for _, k := range []int{1, 10, 200, items} {
				for _, exclude := range []bool{true, false} {
					got, want := m.Recommend(rated, vals, k, exclude), sorted(want, rated, k, exclude)
					if err := sameRanking(got, want, cfg.Objective != recommender.Rating); err != "" {
						t.Fatalf("%s, user %d, k %d, exclude_seen %v: %s", cfg.Objective, u, k, exclude, err)
					}
				}
			}
		}
	}
}
