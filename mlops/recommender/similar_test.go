package recommender_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
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

// TestSimilarMatchesReference checks Similar, scored in chunks on several
// goroutines, against ReferenceSimilar value for value, on 20,011 items
// of random weights with a shared row, a run of items of the same
// weights (ties) and one of zero weights.
func TestSimilarMatchesReference(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const items = 20011
	cfg := recommender.DefaultConfig()
	cfg.Hidden = []int{8}
	m, err := recommender.InitialModel(cfg, shaped(4, 20, items, 2000))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, w := range m.Weights {
		for i := range w {
			w[i] = rng.NormFloat64()
		}
	}
	dec, h := m.Weights[2], cfg.Hidden[0]+1
	for j := 201; j < 230; j++ { // items 200 to 229 have the same weights
		copy(dec[j*h:(j+1)*h], dec[200*h:201*h])
	}
	shared := m.Weights[1][len(m.Weights[1])-h:]
	for i := range h - 1 { // item 300's embedding is zero
		dec[300*h+i] = -shared[i]
	}
	for _, item := range []int{0, 200, 300, items - 1} {
		if got, want := m.Similar(item, 100), m.ReferenceSimilar(item, 100); !slices.Equal(got, want) {
			t.Fatalf("item %d: %v\nwant %v", item, got, want)
		}
	}
}
