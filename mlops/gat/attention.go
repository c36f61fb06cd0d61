package gat

import (
	"fmt"

	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/series"
)

// Edge is how much attention the network's last layer pays, in forming
// the output of entity Target, to entity Source: a weight in [0, 1]. An
// edge with Source == Target is the self loop every node has.
type Edge struct {
	Source int
	Target int
	Weight float64
}

// Attention explains the model's forecasts of x at the target rows rows
// by the attention coefficients of its last layer: for every (source,
// target) pair that was an edge of some sample's graph, self loops
// included, the coefficient averaged over the heads and over the samples
// in which the edge occurred. Parallel edges of one sample count as one
// edge whose coefficient is their sum. The edges are sorted by target,
// then source; no rows give no edges.
//
// Without a neighbour limit every sample's graph is complete, so the
// weights into each target sum to 1, as each sample's do. With a limit the
// graph changes from sample to sample and an edge's weight is its mean
// over the samples that had it, not over all of rows: the weights into a
// target then need not sum to 1, and a pair that was rarely an edge may
// weigh as much as one that always was.
func (m *Model) Attention(x series.Matrix, rows []int) ([]Edge, error) {
	if x.N != m.Entities {
		return nil, fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	if err := series.CheckSamples(x, m.Config.Span(), rows); err != nil {
		return nil, err
	}
	net, s, err := m.prepared(x)
	if err != nil {
		return nil, err
	}
	last := net.layers[len(net.layers)-1].conv
	acc := newAttentionSum(x.N)
	for k, t := range rows {
		s.predict(net, t)
		acc.add(s.last, last, k+1)
	}
	return acc.edges(), nil
}

// attentionSum accumulates head-averaged attention per (source, target)
// pair over samples. Pair (i, j) is at j*n+i, so that walking the slices
// in order visits the pairs sorted by target, then source.
type attentionSum struct {
	n      int
	sum    []float64
	count  []int // samples in which the pair was an edge
	sample []int // the last sample that counted the pair, numbered from 1
}

func newAttentionSum(n int) *attentionSum {
	return &attentionSum{n: n, sum: make([]float64, n*n), count: make([]int, n*n), sample: make([]int, n*n)}
}

// add adds the attention of conv's last Forward, which ran on g, as the
// sample numbered sample (from 1, a different number for every call).
func (a *attentionSum) add(g *nn.Graph, conv *nn.GATConv, sample int) {
	att := conv.Attention()
	_, heads := att.Dims()
	for k := range len(g.Src) + g.N {
		src, dst := k-len(g.Src), k-len(g.Src)
		if k < len(g.Src) {
			src, dst = g.Src[k], g.Dst[k]
			if src == dst {
				continue // ignored by the layer, its row is zero
			}
		}
		w := 0.0
		for _, v := range att.RawRowView(k) {
			w += v
		}
		p := dst*a.n + src
		a.sum[p] += w / float64(heads)
		if a.sample[p] != sample {
			a.sample[p] = sample
			a.count[p]++
		}
	}
}

// edges returns the pairs counted at least once, with their mean weights.
func (a *attentionSum) edges() []Edge {
	var out []Edge
	for p, c := range a.count {
		if c > 0 {
			out = append(out, Edge{Source: p % a.n, Target: p / a.n, Weight: a.sum[p] / float64(c)})
		}
	}
	return out
}
