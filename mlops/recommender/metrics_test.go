package recommender_test

import (
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// TestUserRank checks the four ranking metrics on rankings whose hits
// are placed by hand: gains are binary, rank r (from 0) is discounted by
// 1/log2(r+2), and recall is over min(cut-off, relevant items).
func TestUserRank(t *testing.T) {
	d := func(rank int) float64 { return 1 / math.Log2(float64(rank+2)) }
	upTo := func(n int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(i)
		}
		return out
	}
	fours := func(n int) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = 4
		}
		return out
	}
	tests := []struct {
		name  string
		top   []int32
		items []int32
		vals  []float32
		want  [4]float64 // Recall@10, NDCG@10, Recall@20, NDCG@100
	}{
		{"hit at rank 15 only", upTo(100), []int32{14}, []float32{5}, [4]float64{0, 0, 1, d(14)}},
		{"hits at ranks 1 and 12 of three relevant", upTo(100), []int32{0, 11, 500, 600}, []float32{4, 4.5, 4, 1},
			[4]float64{1.0 / 3, d(0) / (d(0) + d(1) + d(2)), 2.0 / 3, (d(0) + d(11)) / (d(0) + d(1) + d(2))}},
		{"25 relevant in the first 25", upTo(100), upTo(25), fours(25), [4]float64{1, 1, 1, 1}},
		{"relevant at 90 to 109", upTo(100), upTo(110)[90:], fours(20), [4]float64{0, 0, 0, func() float64 {
			var dcg, ideal float64
			for r := range 20 {
				ideal += d(r)
				if r < 10 {
					dcg += d(90 + r)
				}
			}
			return dcg / ideal
		}()}},
		{"a ranking shorter than the cut-offs", []int32{7, 3, 9}, []int32{9}, []float32{4}, [4]float64{1, d(2), 1, d(2)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := recommender.UserRank(tt.top, tt.items, tt.vals, 4)
			if !ok {
				t.Fatal("not ok with a relevant item")
			}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-12 {
					t.Errorf("got %v, want %v", got, tt.want)
					break
				}
			}
		})
	}
	if _, ok := recommender.UserRank(upTo(5), []int32{1}, []float32{3}, 4); ok {
		t.Error("ok without a relevant item")
	}
}
