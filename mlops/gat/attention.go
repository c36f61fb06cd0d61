package gat

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

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
//
// The network runs on the rows on up to Config.Workers goroutines, each
// with a network and a sampler of its own, without the anchor (which is
// added to the network's output and does not change its attention); the
// weights do not depend on the number of workers.
func (m *Model) Attention(x series.Matrix, rows []int) ([]Edge, error) {
	if x.N != m.Entities {
		return nil, fmt.Errorf("gat model has %d entities, the data %d", m.Entities, x.N)
	}
	if err := series.CheckSamples(x, m.Config.Span(), rows); err != nil {
		return nil, err
	}
	workers := max(1, min(m.Config.Workers, len(rows)))
	nets, samplers := make([]*Net, workers), make([]*sampler, workers)
	for w := range workers {
		net, s, err := m.prepared(x)
		if err != nil {
			return nil, err
		}
		nets[w], samplers[w] = net, s
	}
	// The samples run forward on the workers a round at a time; each
	// sample's weights are added in the order of rows, as one goroutine
	// would add them, while the workers run the next round, so the sums
	// do not depend on the number of workers.
	round := max(workers, min(8*workers, attentionRoundBytes/(16*edgesPerSample(m.Config, x.N))))
	bufs := [2][]sampleAttention{make([]sampleAttention, round), make([]sampleAttention, round)}
	acc := newAttentionSum(x.N, m.Config.Neighbors > 0 && m.Config.Neighbors < x.N-1)
	var adding sync.WaitGroup
	for from, r := 0, 0; from < len(rows); from, r = from+round, 1-r {
		batch, buf := rows[from:min(from+round, len(rows))], bufs[r]
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				net, s := nets[w], samplers[w]
				last := net.layers[len(net.layers)-1].conv
				for k := int(next.Add(1) - 1); k < len(batch); k = int(next.Add(1) - 1) {
					s.forward(net, batch[k])
					buf[k].set(s.last, last, x.N)
				}
			})
		}
		wg.Wait()
		adding.Wait() // the previous round is added: its buffer is free
		adding.Go(func() {
			for k := range batch {
				acc.addSample(&buf[k], from+k+1)
			}
		})
	}
	adding.Wait()
	return acc.edges(), nil
}

// attentionRoundBytes bounds the per-sample weights Attention holds in
// each of its two rounds: 16 bytes an edge (its pair and weight).
const attentionRoundBytes = 32 << 20

// edgesPerSample is the most edges, self loops included, a sample's graph
// of n entities has under cfg.
func edgesPerSample(cfg Config, n int) int {
	if cfg.NoGraph {
		return n
	}
	if cfg.Neighbors > 0 && cfg.Neighbors < n-1 {
		return n * (cfg.Neighbors + 1)
	}
	return n * n
}

// sampleAttention is one sample's head-averaged attention of the last
// layer: for each edge of its graph, then each self loop the layer adds,
// the (source, target) pair, at target*n+source, and its weight.
type sampleAttention struct {
	pair   []int
	weight []float64
}

// set fills a with the attention of conv's last Forward, which ran on g,
// for n entities. A self loop in g's own edge list, which the layer
// ignores, is left out.
func (a *sampleAttention) set(g *nn.Graph, conv *nn.GATConv, n int) {
	att := conv.Attention()
	_, heads := att.Dims()
	a.pair, a.weight = a.pair[:0], a.weight[:0]
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
		a.pair = append(a.pair, dst*n+src)
		a.weight = append(a.weight, w/float64(heads))
	}
}

// attentionSum accumulates head-averaged attention per (source, target)
// pair over samples. Without a neighbour limit every pair is an edge of
// every sample, and pair (i, j) is at j*n+i of dense slices, so that
// walking them in order visits the pairs sorted by target, then source.
// With a limit it keeps, per target, only the sources that were an edge
// into it, sorted, in memory proportional to the distinct edges rather
// than to N x N. Either way each pair's weights are added in the order of
// the samples, so the sums are the same.
type attentionSum struct {
	n      int
	sum    []float64
	count  []int // samples in which the pair was an edge
	sample []int // the last sample that counted the pair, numbered from 1
	// targets, when not nil, holds the pairs instead: the sources into
	// each target, sorted.
	targets [][]pairSum
}

// pairSum is one source's accumulated attention into a target.
type pairSum struct {
	source int
	sum    float64
	count  int
	sample int
}

// newAttentionSum returns an accumulator for n entities, sparse when
// the graphs are neighbour-limited.
func newAttentionSum(n int, sparse bool) *attentionSum {
	if sparse {
		return &attentionSum{n: n, targets: make([][]pairSum, n)}
	}
	return &attentionSum{n: n, sum: make([]float64, n*n), count: make([]int, n*n), sample: make([]int, n*n)}
}

// addSample adds one sample's weights as the sample numbered sample.
func (a *attentionSum) addSample(one *sampleAttention, sample int) {
	if a.targets != nil {
		for k, p := range one.pair {
			a.addSparse(p/a.n, p%a.n, one.weight[k], sample)
		}
		return
	}
	for k, p := range one.pair {
		a.sum[p] += one.weight[k]
		if a.sample[p] != sample {
			a.sample[p] = sample
			a.count[p]++
		}
	}
}

// addSparse adds weight w of the edge source -> target of sample.
func (a *attentionSum) addSparse(target, source int, w float64, sample int) {
	list := a.targets[target]
	at, found := slices.BinarySearchFunc(list, source, func(p pairSum, s int) int { return cmp.Compare(p.source, s) })
	if !found {
		list = slices.Insert(list, at, pairSum{source: source})
		a.targets[target] = list
	}
	p := &list[at]
	p.sum += w
	if p.sample != sample {
		p.sample = sample
		p.count++
	}
}

// edges returns the pairs counted at least once, with their mean weights.
func (a *attentionSum) edges() []Edge {
	if a.targets != nil {
		total := 0
		for _, list := range a.targets {
			total += len(list)
		}
		out := make([]Edge, 0, total)
		for j, list := range a.targets {
			for _, p := range list {
				out = append(out, Edge{Source: p.source, Target: j, Weight: p.sum / float64(p.count)})
			}
		}
		return out
	}
	var out []Edge
	for p, c := range a.count {
		if c > 0 {
			out = append(out, Edge{Source: p % a.n, Target: p / a.n, Weight: a.sum[p] / float64(c)})
		}
	}
	return out
}
