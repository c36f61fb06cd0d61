package gat

import (
	"fmt"
	"slices"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/series"
)

// ForecastEntities is Forecast's rows (steps x entities of x) with only the
// columns of entities computed, each equal to Forecast's up to the order
// of floating-point sums (the tests hold them to 1e-9); the other columns
// are 0 (all of them without entities). It computes the network over the
// entities' receptive field where that is smaller than every entity:
//
//   - a network of L convolutions (len(Config.Hidden)+1) gives a node an
//     output that reads the inputs of the nodes at most L edges upstream
//     of it in the sample's graph (its sources, their sources, ...), and
//     the edges into the nodes at most L-1 edges upstream; every input
//     (window, highway lags, anchor) is the node's own column;
//   - with a neighbour limit k (Config.Neighbors below N-1) a target's
//     sources are its k strongest correlations among every entity's
//     window, so finding them reads every column's last Window rows;
//   - a pass of the network from an origin therefore needs the L-hop field
//     of the origin's graph, whose edges are chosen from rows already
//     known: the history, for the first pass;
//   - a recursive network's step s+1 reads the step-s forecasts of every
//     entity (each is a candidate source of some node of the field), so
//     steps 1..h-1 of an h-step forecast need every entity and only step h
//     the field; a direct or multi-output network forecasts its Horizon
//     steps in one pass, so up to Horizon steps need only the field, and
//     past that every block but the last needs every entity;
//   - without a graph (Config.NoGraph) the field is the entities
//     themselves at every step; with the complete graph (no neighbour
//     limit) it is every entity, and ForecastEntities is Forecast.
//
// So ForecastEntities forecasts every entity for the passes before the
// last (none for steps 1 of a recursive network, or up to Horizon steps of
// a direct or multi-output one) and the last pass over the field alone.
func (m *Model) ForecastEntities(x series.Matrix, steps int, entities []int) ([][]float64, error) {
	if x.N != m.Entities {
		return nil, fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	for _, e := range entities {
		if e < 0 || e >= x.N {
			return nil, fmt.Errorf("gat: entity %d out of range for %d entities", e, x.N)
		}
	}
	cfg := m.Config
	if !cfg.NoGraph && (cfg.Neighbors <= 0 || cfg.Neighbors >= x.N-1) {
		return m.Forecast(x, steps)
	}
	net, err := m.net()
	if err != nil {
		return nil, err
	}
	anchor, err := m.Anchor.forecaster()
	if err != nil {
		return nil, err
	}
	out := baseline.Rows(max(steps, 0), x.N)
	if steps <= 0 || len(entities) == 0 {
		return out, nil
	}
	prefix := 0
	if !cfg.NoGraph {
		prefix = (steps - 1) / cfg.steps() * cfg.steps()
	}
	hist := x // the history the last pass starts from
	if prefix > 0 {
		n := x.N
		forecasterOf(net, cfg, anchor).Forecast(x, x.T, out[:prefix])
		hist = series.Matrix{T: x.T + prefix, N: n, Values: make([]float64, (x.T+prefix)*n)}
		copy(hist.Values, x.Values[:x.T*n])
		for k, row := range out[:prefix] {
			copy(hist.Values[(x.T+k)*n:], row)
		}
	}
	nodes, g := slices.Sorted(slices.Values(dedup(entities))), (*nn.Graph)(nil)
	if !cfg.NoGraph {
		nodes, g = m.field(hist, entities)
	}
	sub, ok := columns(anchor, nodes)
	if !ok {
		return m.Forecast(x, steps)
	}
	rows := fieldPass(net, cfg, sub, g, pick(hist, nodes), steps-prefix)
	for k, row := range rows {
		for c, i := range nodes {
			out[prefix+k][i] = row[c]
		}
	}
	return out, nil
}

// fieldPass forecasts steps rows past sub, the columns of a receptive
// field: over graph g (in sub's columns) in one pass of the network from
// sub's end, or, with g nil (a network without a graph), as Forecast does.
// With a graph steps is at most the network's steps.
func fieldPass(net *Net, cfg Config, anchor baseline.Forecaster, g *nn.Graph, sub series.Matrix, steps int) [][]float64 {
	rows := baseline.Rows(steps, sub.N)
	if g == nil {
		forecasterOf(net, cfg, anchor).Forecast(sub, sub.T, rows)
		return rows
	}
	s := newSampler(sub, cfg, anchor, nil, 0)
	s.fixed = g
	if cfg.steps() == 1 {
		pred, _ := s.predict(net, sub.T)
		copy(rows[0], pred.RawMatrix().Data)
		return rows
	}
	pred := s.steps(net, sub.T)
	for k, row := range rows {
		for i := range row {
			row[i] = pred.At(i, k)
		}
	}
	return rows
}

// field is the receptive field of entities for one pass of the network
// from the end of x: the nodes at most L edges upstream of them (sorted),
// and the graph over those nodes (indices into nodes) that keeps the
// sample's edges into the nodes at most L-1 edges upstream, each with its
// weight from the windows. Those edges are the ones the whole graph has
// (series.Windows.Strongest lists a target's sources as StrongestAll
// does; past ApproxNeighborsEntities entities the approximate search
// lists every target's, which is linear in N); the outer nodes get none, so their outputs past the first layer
// differ from the whole network's but reach no node of the entities.
func (m *Model) field(x series.Matrix, entities []int) ([]int, *nn.Graph) {
	keep := min(m.Config.Neighbors, x.N-1)
	var w series.Windows
	w.Set(x, x.T, m.Config.Window)
	in := map[int]bool{}
	frontier := dedup(entities)
	for _, e := range frontier {
		in[e] = true
	}
	sources := map[int][]int32{}
	var all []int32 // every target's sources, where the search is approximate
	if approxNeighbors(x.N, keep) {
		all = sourcesAll(&w, nil, keep, 1)
	}
	for range len(m.Config.Hidden) + 1 {
		var next []int
		for _, j := range frontier {
			if all != nil {
				sources[j] = all[j*keep : (j+1)*keep]
			} else {
				sources[j] = w.Strongest(nil, j, keep)
			}
			for _, i := range sources[j] {
				if !in[int(i)] {
					in[int(i)] = true
					next = append(next, int(i))
				}
			}
		}
		frontier = next
	}
	nodes := make([]int, 0, len(in))
	for i := range in {
		nodes = append(nodes, i)
	}
	slices.Sort(nodes)
	index := make(map[int]int, len(nodes))
	for c, i := range nodes {
		index[i] = c
	}
	g := &nn.Graph{N: len(nodes)}
	for c, j := range nodes {
		for _, i := range sources[j] {
			g.Src = append(g.Src, index[int(i)])
			g.Dst = append(g.Dst, c)
			g.Attr = append(g.Attr, w.Corr(int(i), j))
		}
	}
	return nodes, g
}

// dedup is entities without repeats, in their first order.
func dedup(entities []int) []int {
	out := make([]int, 0, len(entities))
	for _, e := range entities {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// pick is the matrix of x's columns cols, in that order.
func pick(x series.Matrix, cols []int) series.Matrix {
	out := series.Matrix{T: x.T, N: len(cols), Values: make([]float64, x.T*len(cols))}
	for t := range x.T {
		row := x.Row(t)
		for c, i := range cols {
			out.Values[t*len(cols)+c] = row[i]
		}
	}
	return out
}

// columns is the fitted anchor f restricted to the entities cols, in that
// order: a forecaster of a matrix of those columns that forecasts each as
// f forecasts it in the whole matrix. ok is false for a forecaster it does
// not know how to restrict. nil (the last value) stays nil.
func columns(f baseline.Forecaster, cols []int) (out baseline.Forecaster, ok bool) {
	switch f := f.(type) {
	case nil:
		return nil, true
	case baseline.LastValue, *baseline.LastValue, baseline.SeasonalNaive, *baseline.SeasonalNaive, *baseline.OLS, *baseline.ARDiff:
		return f, true // shared by every entity
	case *baseline.Drift:
		return &baseline.Drift{Slope: picked(f.Slope, cols)}, true
	case *baseline.Constant:
		return &baseline.Constant{Mean: picked(f.Mean, cols)}, true
	case *baseline.ETS:
		return &baseline.ETS{Season: f.Season, Params: picked(f.Params, cols), Init: picked(f.Init, cols), Forms: picked(f.Forms, cols),
			AICc: picked(f.AICc, cols)}, true
	case *baseline.Theta:
		seasonal := pick(f.Seasonal, cols)
		return &baseline.Theta{Season: f.Season, Alpha: picked(f.Alpha, cols), Drift: picked(f.Drift, cols), Seasonal: seasonal,
			Level0: picked(f.Level0, cols), Multiplicative: picked(f.Multiplicative, cols)}, true
	case *baseline.ARIMA:
		return &baseline.ARIMA{Season: f.Season, Models: picked(f.Models, cols)}, true
	case *baseline.Mean:
		members, ok := columnsOf(f.Members, cols)
		return &baseline.Mean{Members: members, Median: f.Median}, ok
	case *baseline.PerEntity:
		members, ok := columnsOf(f.Members, cols)
		return &baseline.PerEntity{Members: members, Choice: picked(f.Choice, cols)}, ok
	}
	return nil, false
}

// columnsOf is columns of each of fs.
func columnsOf(fs []baseline.Forecaster, cols []int) ([]baseline.Forecaster, bool) {
	out := make([]baseline.Forecaster, len(fs))
	for k, f := range fs {
		g, ok := columns(f, cols)
		if !ok || g == nil {
			return nil, false
		}
		out[k] = g
	}
	return out, true
}

// picked is the elements cols of s, nil for an empty s (a field a fit
// leaves out).
func picked[T any](s []T, cols []int) []T {
	if len(s) == 0 {
		return nil
	}
	out := make([]T, len(cols))
	for c, i := range cols {
		out[c] = s[i]
	}
	return out
}
