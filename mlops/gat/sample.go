package gat

import (
	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// sampler builds a sample's graph and features: the nodes' windows before
// row t (relative to their last value when the model is anchored), the
// highway's lags, and edges weighted by the windows' correlations. It
// reuses its buffers, so each worker has its own.
type sampler struct {
	m         series.Matrix
	window    int
	neighbors int
	noGraph   bool // every graph is self loops only (Config.NoGraph)
	anchored  bool
	highway   int
	x         *mat.Dense
	lags      *mat.Dense // N x highway; nil without a highway
	corr      []float64
	target    []float64
	complete  *nn.Graph // the graph of the last sample when neighbors <= 0
	// graphs, if not nil, keeps the sources of neighbour-limited graphs
	// across samplers and epochs; win, sources and edges are sparse's
	// buffers.
	graphs *graphCache
	// graphWorkers split the search of a neighbour-limited graph (see
	// series.Windows.StrongestAllOver): a forecast's steps, one after
	// another, each search every pair; samplers that run side by side
	// keep 1.
	graphWorkers int
	win          series.Windows
	sources      []int32
	edges        *nn.Graph
	last         *nn.Graph // the graph of the last predict, valid until the next
	// fixed, if not nil, is every sample's graph: a receptive field's,
	// whose edges were chosen against every entity (see Model.field).
	fixed *nn.Graph
	// anchor, if not nil, is the baseline an anchored network's output is
	// added to (nil: the last value); pre holds its forecasts of rows
	// preFrom.. of m, where they were computed ahead.
	anchor  baseline.Forecaster
	pre     []float64
	preFrom int
	base    []float64
	// preSteps, if not nil, holds the anchor's forecasts of steps
	// 1..steps from each origin preFrom.. of m (see stepBases), and
	// stepBuf those computed per origin; col is the first output of a
	// network with several (see predict).
	preSteps []float64
	stepBuf  []float64
	col      *mat.Dense
	// stepCols is a direct network's step embedding width (0 for
	// others); xs is x with the embedding of step, the step the next
	// forward predicts, and multi the direct network's steps (see steps).
	stepCols int
	step     int
	xs       *mat.Dense
	multi    *mat.Dense
}

// newSampler returns a sampler of m for cfg, anchored to anchor (nil: the
// last value) whose forecasts of rows from.. of m are pre (nil: computed
// per sample).
func newSampler(m series.Matrix, cfg Config, anchor baseline.Forecaster, pre []float64, from int) sampler {
	s := sampler{m: m, window: cfg.Window, neighbors: cfg.Neighbors, noGraph: cfg.NoGraph, anchored: cfg.anchored(), highway: cfg.Highway,
		x: mat.NewDense(m.N, cfg.Window, nil), target: make([]float64, m.N),
		anchor: anchor, pre: pre, preFrom: from, base: make([]float64, m.N), stepCols: cfg.stepInputs()}
	if cfg.Neighbors <= 0 || cfg.Neighbors >= m.N-1 {
		s.corr = make([]float64, m.N*m.N)
	}
	if cfg.Highway > 0 {
		s.lags = mat.NewDense(m.N, cfg.Highway, nil)
	}
	return s
}

// windowsExact is the longest window whose series.Windows.Corr is bit for
// bit series.Correlation's value.
const windowsExact = 64

// graph is the correlation graph of the windows before row t, valid until
// the next call. Without a neighbour limit series.Edges keeps every ordered
// pair whatever the correlations, so the sampler lists the edges once and
// afterwards only sets their attributes, as Edges does, in place: from the
// windows' dot products, one per edge, where the window allows (see
// windowsExact), rather than from Correlation's N x N matrix, whose
// product gonum splits over goroutines at every sample. With a
// limit below N-1 it is sparse's graph, which costs O(N neighbors) memory.
// With Config.NoGraph it has no edges at all.
func (s *sampler) graph(t int) *nn.Graph {
	if s.fixed != nil {
		return s.fixed
	}
	if s.noGraph { // no edges: the layers add a self loop per node
		if s.complete == nil || s.complete.N != s.m.N {
			s.complete = &nn.Graph{N: s.m.N}
		}
		return s.complete
	}
	if s.neighbors > 0 && s.neighbors < s.m.N-1 {
		return s.sparse(t)
	}
	if g := s.complete; g != nil && s.window <= windowsExact {
		s.win.Set(s.m, t, s.window)
		for e, i := range g.Src {
			g.Attr[e] = s.win.Corr(i, g.Dst[e])
		}
		return g
	}
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

// inputs fills the features and the highway's lags of the sample whose
// target is row t. An anchored model sees each window less the node's
// last value, and its highway the node's last differences (oldest
// first); otherwise the highway sees the last values.
func (s *sampler) inputs(t int) {
	series.Features(s.m, t, s.window, s.x)
	if s.anchored {
		for i := range s.m.N {
			row := s.x.RawRowView(i)
			last := s.m.At(t-1, i)
			for k := range row {
				row[k] -= last
			}
		}
	}
	for k := range s.highway {
		lag := t - s.highway + k // the lag's row; oldest first
		for i := range s.m.N {
			v := s.m.At(lag, i)
			if s.anchored {
				v -= s.m.At(lag-1, i)
			}
			s.lags.Set(i, k, v)
		}
	}
}

// predict runs net forward on the sample whose target is row t; it returns
// the predictions (N x 1) and row t (nil when t is past the data). A
// network with several outputs (see Strategies) predicts row t with its
// first, step 1 from origin t.
func (s *sampler) predict(net *Net, t int) (*mat.Dense, []float64) {
	pred := s.forward(net, t)
	if r, c := pred.Dims(); c > 1 {
		if s.col == nil || s.col.RawMatrix().Rows != r {
			s.col = mat.NewDense(r, 1, nil)
		}
		s.col.Copy(pred.Slice(0, r, 0, 1))
		pred = s.col
	}
	if s.anchored {
		for i, b := range s.anchorAt(t) {
			pred.Set(i, 0, pred.At(i, 0)+b)
		}
	}
	if t >= s.m.T {
		return pred, nil
	}
	for i := range s.m.N {
		s.target[i] = s.m.At(t, i)
	}
	return pred, s.target
}

// forward runs net forward on the sample whose target is row t and
// returns its output (N x 1) before the anchor is added: what the network
// computes, and all its attention depends on.
func (s *sampler) forward(net *Net, t int) *mat.Dense {
	s.inputs(t)
	s.last = s.graph(t)
	net.step = s.step
	if s.stepCols == 0 {
		return net.forward(s.last, s.x, s.lags)
	}
	if s.xs == nil || s.xs.RawMatrix().Rows != s.m.N {
		s.xs = mat.NewDense(s.m.N, s.window+s.stepCols, nil)
	}
	for i := range s.m.N {
		row := s.xs.RawRowView(i)
		copy(row, s.x.RawRowView(i))
		clear(row[s.window:])
		row[s.window+s.step] = 1
	}
	return net.forward(s.last, s.xs, s.lags)
}

// anchorAt is the anchor's forecast of row t: the last value, the one
// computed ahead, or the anchor's forecast from the rows before t.
func (s *sampler) anchorAt(t int) []float64 {
	switch {
	case s.anchor == nil:
		return s.m.Row(t - 1)
	case s.pre != nil && t >= s.preFrom && (t-s.preFrom+1)*s.m.N <= len(s.pre):
		return s.pre[(t-s.preFrom)*s.m.N : (t-s.preFrom+1)*s.m.N]
	}
	s.anchor.Forecast(s.m, t, [][]float64{s.base})
	return s.base
}

// sse is the summed squared error of net over samples. If keep is not
// nil it also keeps the predictions there (see predictions.row).
func (s *sampler) sse(net *Net, samples []int, keep *predictions) float64 {
	sum := 0.0
	for _, t := range samples {
		pred, target := s.predict(net, t)
		if keep != nil {
			copy(keep.row(t), pred.RawMatrix().Data)
		}
		for i, y := range target {
			d := pred.At(i, 0) - y
			sum += d * d
		}
	}
	return sum
}
