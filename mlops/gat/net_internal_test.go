package gat

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkNetSample runs the default network forward and backward on one
// training sample after another, as a worker does, at 200 entities with
// the complete graph (40,000 attention slots a layer): the graph grouped
// once for the three layers, and (with -benchmem) what a sample allocates.
//
//	go test -run '^$' -bench NetSample -benchmem ./mlops/gat/
func BenchmarkNetSample(b *testing.B) {
	m := series.Synthetic(200, 400, 1, 24)
	cfg := DefaultConfig()
	net := newNet(cfg, rand.New(rand.NewPCG(1, 2)))
	s := newSampler(m, cfg, nil, nil, 0)
	dy := mat.NewDense(m.N, 1, nil)
	t := cfg.Span()
	for b.Loop() {
		pred, target := s.predict(net, t)
		for i := range m.N {
			dy.Set(i, 0, 2*(pred.At(i, 0)-target[i]))
		}
		net.backward(dy)
		if t++; t >= m.T {
			t = cfg.Span()
		}
	}
}

// TestCompleteGraphMatchesCorrelation checks that the complete graph's
// attributes, taken from the windows' dot products after the first
// sample, are series.Correlation's values to the bit, a constant entity's
// zeros included, for a short window and for one past windowsExact, where
// the sampler takes Correlation's matrix.
func TestCompleteGraphMatchesCorrelation(t *testing.T) {
	const n, rows = 70, 200
	rng := rand.New(rand.NewPCG(31, 32))
	m := series.Matrix{N: n, T: rows, Values: make([]float64, n*rows)}
	for r := range rows {
		for i := 1; i < n; i++ { // entity 0 stays constant
			m.Values[r*n+i] = math.Sin(float64(r)/float64(1+i%7)) + 0.3*rng.NormFloat64()
		}
	}
	for _, window := range []int{4, windowsExact, windowsExact + 6} {
		cfg := DefaultConfig()
		cfg.Window = window
		s := newSampler(m, cfg, nil, nil, 0)
		corr := make([]float64, n*n)
		for t0 := window; t0 < rows; t0 += 7 {
			g := s.graph(t0)
			series.Correlation(m, t0, window, corr)
			if len(g.Src) != n*(n-1) {
				t.Fatalf("window %d: %d edges, want %d", window, len(g.Src), n*(n-1))
			}
			for e, i := range g.Src {
				if want := corr[i*n+g.Dst[e]]; math.Float64bits(g.Attr[e]) != math.Float64bits(want) {
					t.Fatalf("window %d, row %d: edge %d -> %d has %v, Correlation %v", window, t0, i, g.Dst[e], g.Attr[e], want)
				}
			}
		}
	}
}

// TestNetReusesBuffersExactly checks that a network which ran forward and
// backward on other samples first, reusing its layers' buffers and its
// grouped graph, gives a sample the predictions and gradients of a fresh
// network to the bit, with the complete graph and with a neighbour limit
// (whose edges change from sample to sample).
func TestNetReusesBuffersExactly(t *testing.T) {
	m := series.Synthetic(12, 120, 1, 24)
	for _, neighbors := range []int{0, 3} {
		cfg := DefaultConfig()
		cfg.Neighbors, cfg.Heads = neighbors, 2
		run := func(net *Net, s *sampler, t0 int) (pred []float64, grads [][]float64) {
			for _, p := range net.Params() {
				p.ZeroGrad()
			}
			out, target := s.predict(net, t0)
			pred = append(pred, out.RawMatrix().Data...)
			dy := mat.NewDense(m.N, 1, nil)
			for i := range m.N {
				dy.Set(i, 0, 2*(out.At(i, 0)-target[i]))
			}
			net.backward(dy)
			for _, p := range net.Params() {
				grads = append(grads, slices.Clone(p.Grad.RawMatrix().Data))
			}
			return pred, grads
		}
		newRun := func() (*Net, *sampler) {
			net := newNet(cfg, rand.New(rand.NewPCG(4, 5)))
			for _, p := range net.Params() { // the anchored network's last layer starts at zero
				for k, v := range p.W.RawMatrix().Data {
					p.W.RawMatrix().Data[k] = v + 0.01*float64(k%7)
				}
			}
			s := newSampler(m, cfg, nil, nil, 0)
			return net, &s
		}
		used, s := newRun()
		for t0 := cfg.Span(); t0 < cfg.Span()+5; t0++ {
			run(used, s, t0)
		}
		const t0 = 100
		gotPred, gotGrads := run(used, s, t0)
		fresh, fs := newRun()
		wantPred, wantGrads := run(fresh, fs, t0)
		if !slices.Equal(gotPred, wantPred) || !slices.EqualFunc(gotGrads, wantGrads, slices.Equal) {
			t.Errorf("neighbors %d: a network that ran other samples first differs from a fresh one", neighbors)
		}
	}
}
