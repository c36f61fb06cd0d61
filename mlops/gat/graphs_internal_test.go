package gat

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/series"
)

// TestSparseGraphMatchesDense checks the neighbour-limited graph of 1,000
// entities with 10 neighbours each, built from the windows in O(N
// neighbours) memory and cached, against the dense reference: series.Edges
// on series.Correlation's N x N matrix. The edges and their attributes are
// the same bit for bit at the first visit of a sample and from the cache,
// and so are the network's predictions.
func TestSparseGraphMatchesDense(t *testing.T) {
	const n, rows = 1000, 24
	rng := rand.New(rand.NewPCG(3, 4))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = rng.NormFloat64()
	}
	for i := range rows { // a constant entity: its correlations are all 0
		m.Values[i*n+7] = 2
	}
	cfg := DefaultConfig()
	cfg.Neighbors, cfg.Target, cfg.Highway = 10, "level", 0
	net := newNet(cfg, rand.New(rand.NewPCG(1, 0)))
	cached := newSampler(m, cfg, nil, nil, 0)
	cached.graphs = newGraphCache(m, cfg.Neighbors)
	fresh := newSampler(m, cfg, nil, nil, 0)
	corr := make([]float64, n*n)
	for _, tr := range []int{cfg.Window, 9, rows - 1, 9} { // row 9 twice: from the cache
		series.Correlation(m, tr, cfg.Window, corr)
		src, dst, attr := series.Edges(corr, n, cfg.Neighbors)
		want := &nn.Graph{N: n, Src: src, Dst: dst, Attr: attr}
		for name, s := range map[string]*sampler{"cached": &cached, "uncached": &fresh} {
			g := s.graph(tr)
			if !slices.Equal(g.Src, want.Src) || !slices.Equal(g.Dst, want.Dst) || !slices.Equal(g.Attr, want.Attr) {
				t.Fatalf("row %d, %s: the sparse graph differs from Edges(Correlation)", tr, name)
			}
			got, _ := s.predict(net, tr)
			s.inputs(tr)
			ref := net.forward(want, s.x, s.lags)
			if !slices.Equal(got.RawMatrix().Data, ref.RawMatrix().Data) {
				t.Errorf("row %d, %s: predictions differ from those on the dense reference's graph", tr, name)
			}
		}
	}
	if got := cached.graphs.get(9); len(got) != n*cfg.Neighbors {
		t.Errorf("the cache holds %d sources of row 9, want %d", len(got), n*cfg.Neighbors)
	}
}

// TestGraphCacheBound checks that the cache takes no more than its bound
// and that a sample past it is listed anew, the same.
func TestGraphCacheBound(t *testing.T) {
	m := series.Matrix{T: 10, N: 5}
	c := newGraphCache(m, 2)
	c.left.Store(4 * 10 * 2) // room for two samples of 5 x 2 sources
	for tr := range 3 {
		src := make([]int32, 10)
		if kept := c.put(tr, src); kept != (tr < 2) {
			t.Errorf("put of row %d kept %v, want %v", tr, kept, tr < 2)
		}
	}
	if c.get(2) != nil || c.get(1) == nil {
		t.Errorf("the cache kept row 2 past its bound, or lost row 1")
	}
	if newGraphCache(m, 0) != nil || newGraphCache(series.Matrix{T: 3, N: 1}, 2) != nil {
		t.Errorf("a cache for the complete graph or a single entity")
	}
}

// TestTrainKeepsPredictions checks that the model training returns serves
// its kept predictions for the matrix it was trained on, and only for it.
func TestTrainKeepsPredictions(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	m := series.Matrix{T: 60, N: 5, Values: make([]float64, 60*5)}
	for i := range m.Values {
		m.Values[i] = rng.NormFloat64()
	}
	cfg := DefaultConfig()
	cfg.Epochs = 2
	model, err := Train(t.Context(), cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := series.Samples(m, cfg.Span())
	if model.keptOf(m, rows) == nil {
		t.Errorf("the trained model keeps no predictions of its matrix")
	}
	if model.keptOf(series.Matrix{T: m.T, N: m.N, Values: slices.Clone(m.Values)}, rows) != nil {
		t.Errorf("the kept predictions serve a copy of the matrix")
	}
	other := *model
	other.Config.Neighbors = 2
	if other.keptOf(m, rows) != nil {
		t.Errorf("the kept predictions serve a model of another configuration")
	}
}
