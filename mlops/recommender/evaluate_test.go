package recommender_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

func TestTopItems(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		seen   []int32
		want   []int32
	}{
		{"best first", []float64{1, 3, 2}, nil, []int32{1, 2, 0}},
		{"seen left out", []float64{1, 3, 2, 5}, []int32{1, 3}, []int32{2, 0}},
		{"ties to the lower item", []float64{2, 1, 2, 2}, nil, []int32{0, 2, 3, 1}},
		{"ten of twelve", []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int32{11}, []int32{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := recommender.TopItems(tt.scores, tt.seen); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRankMetrics(t *testing.T) {
	discount := func(rank int) float64 { return 1 / math.Log2(float64(rank+2)) }
	tests := []struct {
		name               string
		top                []int32
		items              []int32
		vals               []float32
		wantRecall, wantND float64
		wantOK             bool
	}{
		{"no relevant item", []int32{1, 2}, []int32{1}, []float32{3.5}, 0, 0, false},
		{"hit second", []int32{5, 1, 2}, []int32{1, 7}, []float32{4, 2}, 1, discount(1), true},
		{"one of two, first", []int32{3, 9}, []int32{1, 3, 8}, []float32{5, 4.5, 1}, 0.5, discount(0) / (discount(0) + discount(1)), true},
		{"recall over at most ten", []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
			[]int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []float32{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, 1, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recall, ndcg, ok := recommender.RankMetrics(tt.top, tt.items, tt.vals, 4)
			if ok != tt.wantOK || math.Abs(recall-tt.wantRecall) > 1e-12 || math.Abs(ndcg-tt.wantND) > 1e-12 {
				t.Errorf("got %v, %v, %v, want %v, %v, %v", recall, ndcg, ok, tt.wantRecall, tt.wantND, tt.wantOK)
			}
		})
	}
}

// TestBaselines works the baselines out by hand on six training and five
// test ratings of three users and four items.
func TestBaselines(t *testing.T) {
	rows := func(r [][][2]float64) recommender.Ratings {
		out := recommender.Ratings{Users: len(r), Items: 4, Ptr: []int{0}}
		for _, row := range r {
			for _, p := range row {
				out.Item = append(out.Item, int32(p[0]))
				out.Value = append(out.Value, float32(p[1]))
			}
			out.Ptr = append(out.Ptr, len(out.Item))
		}
		return out
	}
	train := rows([][][2]float64{{{0, 5}, {1, 3}}, {{0, 4}, {2, 2}}, {{1, 1}, {3, 4}}})
	test := rows([][][2]float64{{{2, 5}, {3, 2}}, {{1, 4.5}, {3, 1}}, {{0, 3}}})
	cfg := recommender.DefaultConfig()
	cfg.Hidden = []int{3}
	m, err := recommender.InitialModel(cfg, train)
	if err != nil {
		t.Fatal(err)
	}
	got, err := recommender.Evaluate(context.Background(), m, train, test, 0)
	if err != nil {
		t.Fatal(err)
	}
	global := 19.0 / 6
	rmse := func(pred ...float64) float64 {
		var s float64
		for i, want := range []float64{5, 2, 4.5, 1, 3} {
			s += (pred[i] - want) * (pred[i] - want)
		}
		return math.Sqrt(s / 5)
	}
	damped := func(sum, n float64) float64 {
		return (sum + recommender.MeanPrior*global) / (n + recommender.MeanPrior)
	}
	// Popularity ranks items 0, 1, 2, 3 (counts 2, 2, 1, 1): user 0 gets
	// 2, 3 and user 1 gets 1, 3, each with its relevant item first. The
	// damped means rank 0, 3, 2, 1, so each gets its relevant item second.
	// User 2 has no relevant test item. With four items every ranking is
	// shorter than ten, so the longer cut-offs measure the same.
	want := []recommender.Metrics{
		{Method: recommender.ItemMean, RMSE: rmse(damped(2, 1), damped(4, 1), damped(4, 2), damped(4, 1), damped(9, 2)),
			RecallAt10: 1, NDCGAt10: 1 / math.Log2(3), RecallAt20: 1, NDCGAt100: 1 / math.Log2(3)},
		{Method: recommender.Popularity, RMSE: rmse(global, global, global, global, global), RecallAt10: 1, NDCGAt10: 1,
			RecallAt20: 1, NDCGAt100: 1},
	}
	if got[0].Method != recommender.Kind || len(got) != 3 {
		t.Fatalf("methods %+v", got)
	}
	for i, w := range want {
		g := got[i+1]
		if g.Method != w.Method || math.Abs(g.RMSE-w.RMSE) > 1e-6 || g.RecallAt10 != w.RecallAt10 || math.Abs(g.NDCGAt10-w.NDCGAt10) > 1e-12 ||
			g.RecallAt20 != w.RecallAt20 || math.Abs(g.NDCGAt100-w.NDCGAt100) > 1e-12 {
			t.Errorf("got %+v, want %+v", g, w)
		}
	}
}
