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
// weights into each target sum to 1, as each sample's do. With a limit k
// the graph changes from sample to sample, and each target keeps its self
// loop and the k sources that drew the most attention over all of rows
// (weight times the samples that had the edge; ties to the lower source),
// so at most k+1 edges a target: the sources a catalogue's forecast of
// it leaned on, in memory proportional to entities x k rather than to
// the distinct edges of every sample. A kept edge's weight is its mean
// over the samples that had it, not over all of rows, so the weights into
// a target need not sum to 1.
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
	acc := newAttentionSum(x.N, keptSources(m.Config, x.N))
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

// keptSources is how many sources besides its self loop Attention keeps
// per target: the neighbour limit, or 0 for none (every pair is kept).
func keptSources(cfg Config, n int) int {
	if cfg.Neighbors > 0 && cfg.Neighbors < n-1 {
		return cfg.Neighbors
	}
	return 0
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
	// each target, sorted. A neighbour-limited sample's graph has each
	// (source, target) pair at most once (each target's k distinct
	// strongest sources, and its self loop), so every weight added to a
	// pair is another sample's.
	targets [][]pairSum
	keep    int // the sources besides the self loop edges keeps per target
}

// pairSum is one source's accumulated attention into a target, in 16
// bytes: a 10,000-entity catalogue's test samples have millions of
// distinct pairs.
type pairSum struct {
	sum    float64
	source int32
	count  int32
}

// newAttentionSum returns an accumulator for n entities: dense without
// a neighbour limit (keep 0), else sparse, keeping keep sources and the
// self loop per target.
func newAttentionSum(n, keep int) *attentionSum {
	if keep > 0 {
		return &attentionSum{n: n, targets: make([][]pairSum, n), keep: keep}
	}
	return &attentionSum{n: n, sum: make([]float64, n*n), count: make([]int, n*n), sample: make([]int, n*n)}
}

// addSample adds one sample's weights as the sample numbered sample.
func (a *attentionSum) addSample(one *sampleAttention, sample int) {
	if a.targets != nil {
		for k, p := range one.pair {
			a.addSparse(p/a.n, p%a.n, one.weight[k])
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

// addSparse adds weight w of the edge source -> target of one sample.
func (a *attentionSum) addSparse(target, source int, w float64) {
	list := a.targets[target]
	at, found := slices.BinarySearchFunc(list, int32(source), func(p pairSum, s int32) int { return cmp.Compare(p.source, s) })
	if !found {
		list = slices.Insert(list, at, pairSum{source: int32(source)})
		a.targets[target] = list
	}
	list[at].sum += w
	list[at].count++
}

// edges returns the pairs counted at least once, with their mean
// weights; with a neighbour limit, only each target's kept ones.
func (a *attentionSum) edges() []Edge {
	if a.targets != nil {
		out := make([]Edge, 0, a.n*(a.keep+1))
		for j, list := range a.targets {
			for _, p := range a.kept(j, list) {
				out = append(out, Edge{Source: int(p.source), Target: j, Weight: p.sum / float64(p.count)})
			}
			a.targets[j] = nil // the sums are done with: free them as the edges are made
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

// kept returns target's self loop and the a.keep other sources of list
// with the largest total attention (ties to the lower source), sorted by
// source. It reorders list.
func (a *attentionSum) kept(target int, list []pairSum) []pairSum {
	first := 0
	if self := slices.IndexFunc(list, func(p pairSum) bool { return int(p.source) == target }); self >= 0 {
		list[0], list[self] = list[self], list[0]
		first = 1
	}
	if len(list) > first+a.keep {
		slices.SortFunc(list[first:], func(x, y pairSum) int {
			return cmp.Or(cmp.Compare(y.sum, x.sum), cmp.Compare(x.source, y.source))
		})
		list = list[:first+a.keep]
	}
	slices.SortFunc(list, func(x, y pairSum) int { return cmp.Compare(x.source, y.source) })
	return list
}
