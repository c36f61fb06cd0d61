package recommender_test

import (
	"math"
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
