package gat

import (
	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// sampler builds a sample's graph and features: the nodes' windows before
// row t, and edges weighted by the windows' correlations. It reuses its
// buffers, so each worker has its own.
type sampler struct {
	m         series.Matrix
	window    int
	neighbors int
	x         *mat.Dense
	corr      []float64
	target    []float64
	complete  *nn.Graph // the graph of the last sample when neighbors <= 0
}

func newSampler(m series.Matrix, window, neighbors int) sampler {
	return sampler{m: m, window: window, neighbors: neighbors, x: mat.NewDense(m.N, window, nil),
		corr: make([]float64, m.N*m.N), target: make([]float64, m.N)}
}

// graph is the correlation graph of the windows before row t, valid until
// the next call. Without a neighbour limit series.Edges keeps every ordered
// pair whatever the correlations, so the sampler lists the edges once and
// afterwards only sets their attributes, as Edges does, in place.
func (s *sampler) graph(t int) *nn.Graph {
	series.Correlation(s.m, t, s.window, s.corr)
	if g := s.complete; g != nil {
		for e, i := range g.Src {
			g.Attr[e] = s.corr[i*g.N+g.Dst[e]]
		}
		return g
	}
	src, dst, attr := series.Edges(s.corr, s.m.N, s.neighbors)
	g := &nn.Graph{N: s.m.N, Src: src, Dst: dst, Attr: attr}
	if s.neighbors <= 0 {
		s.complete = g
	}
	return g
}

// predict runs net forward on the sample whose target is row t; it returns
// the predictions (N x 1) and row t (nil when t is past the data).
func (s *sampler) predict(net *Net, t int) (*mat.Dense, []float64) {
	series.Features(s.m, t, s.window, s.x)
	pred := net.forward(s.graph(t), s.x)
	if t >= s.m.T {
		return pred, nil
	}
	for i := range s.m.N {
		s.target[i] = s.m.At(t, i)
	}
	return pred, s.target
}

// sse is the summed squared error of net over samples.
func (s *sampler) sse(net *Net, samples []int) float64 {
	sum := 0.0
	for _, t := range samples {
		pred, target := s.predict(net, t)
		for i, y := range target {
			d := pred.At(i, 0) - y
			sum += d * d
		}
	}
	return sum
}
