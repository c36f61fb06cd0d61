package recommender_test

import (
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// TestSimilar sets the decoder of a model of one hidden unit pair by hand:
// the shared row (1, 0) plus each item's offsets give the embeddings
// (1, 0), (0, 1), (1, 1), (−1, 0) and (0, 0).
func TestSimilar(t *testing.T) {
	cfg := recommender.DefaultConfig()
	cfg.Hidden = []int{2}
	train := recommender.Ratings{Users: 1, Items: 5, Ptr: []int{0, 1}, Item: []int32{0}, Value: []float32{3}}
	m, err := recommender.InitialModel(cfg, train)
	if err != nil {
		t.Fatal(err)
	}
	dense := m.Weights[1] // two hidden biases, then the shared row: two weights and a bias
	dense[2], dense[3] = 1, 0
	offsets := [][2]float64{{0, 0}, {-1, 1}, {0, 1}, {-2, 0}, {-1, 0}}
	for j, o := range offsets {
		m.Weights[2][j*3], m.Weights[2][j*3+1] = o[0], o[1]
	}
	got := m.Similar(0, 4)
	want := []recommender.Scored{{Item: 2, Score: 1 / math.Sqrt2}, {Item: 1, Score: 0}, {Item: 4, Score: 0}, {Item: 3, Score: -1}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Item != want[i].Item || math.Abs(got[i].Score-want[i].Score) > 1e-12 {
			t.Errorf("got %v, want %v", got, want)
			break
		}
	}
	if top := m.Similar(3, 1); top[0].Item != 1 {
		t.Errorf("nearest to (−1, 0): %v, want item 1, the first orthogonal one; 0 and 2 point away", top)
	}
}
