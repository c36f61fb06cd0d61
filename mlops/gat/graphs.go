package gat

import (
	"sync/atomic"

	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/series"
)

// graphCacheBytes bounds the memory a training run spends on the sources
// of its samples' neighbour-limited graphs: 4 bytes per edge, so entities
// x neighbors x 4 bytes a sample. Samples past the bound are listed anew
// at every visit. 256 MiB holds 6,700 samples of 1,000 entities with 10
// neighbours each.
const graphCacheBytes = 256 << 20

// graphCache keeps the sources of every sample's neighbour-limited graph,
// by target row, for the workers of one training run. A sample's graph
// depends only on the rows before it, so it is the same at every epoch;
// choosing its sources reads every pair of entities, O(N^2 window), while
// the graph has N x neighbors edges and, given its sources, costs O(N
// neighbors window) to weigh again. Workers fill it as they first meet a
// sample; two that meet one together both list it and store the same.
type graphCache struct {
	keep  int // sources per target
	lists []atomic.Pointer[[]int32]
	left  atomic.Int64 // bytes the cache may still take
}

// newGraphCache returns a cache for the graphs of m's rows with neighbors
// sources per target, or nil when there is no neighbour limit (the
// complete graph is listed once per sampler anyway).
func newGraphCache(m series.Matrix, neighbors int) *graphCache {
	keep := min(neighbors, m.N-1)
	if neighbors <= 0 || keep <= 0 {
		return nil
	}
	c := &graphCache{keep: keep, lists: make([]atomic.Pointer[[]int32], m.T)}
	c.left.Store(graphCacheBytes)
	return c
}

// get returns the sources of row t's graph, or nil if they are not kept.
func (c *graphCache) get(t int) []int32 {
	if c == nil || t >= len(c.lists) {
		return nil
	}
	if p := c.lists[t].Load(); p != nil {
		return *p
	}
	return nil
}

// put keeps src as the sources of row t's graph while the bound allows;
// src must not change afterwards. It reports whether it kept src.
func (c *graphCache) put(t int, src []int32) bool {
	if c == nil || t >= len(c.lists) || c.left.Add(-4*int64(len(src))) < 0 {
		return false
	}
	c.lists[t].Store(&src)
	return true
}

// sparse is the graph of the windows before row t keeping each target's
// s.neighbors strongest sources, as series.Edges keeps them from
// series.Correlation's matrix (past ApproxNeighborsEntities entities,
// those the approximate search finds; see sourcesAll), valid until the
// next call. The sources come
// from the run's cache when it holds them; the attributes are weighed from
// the windows at every call, exactly as the sources were chosen.
func (s *sampler) sparse(t int) *nn.Graph {
	n := s.m.N
	keep := min(s.neighbors, n-1)
	s.win.Set(s.m, t, s.window)
	src := s.graphs.get(t)
	if src == nil {
		buf := s.sources[:0]
		if s.graphs != nil {
			buf = make([]int32, 0, n*keep) // handed to the cache, so not reused
		}
		buf = sourcesAll(&s.win, buf, keep, s.graphWorkers)
		if !s.graphs.put(t, buf) {
			s.sources = buf
		}
		src = buf
	}
	g := s.edges
	if g == nil || g.N != n || len(g.Src) != len(src) {
		g = &nn.Graph{N: n, Src: make([]int, len(src)), Dst: make([]int, len(src)), Attr: make([]float64, len(src))}
		s.edges = g
	}
	for e, i := range src {
		j := e / keep
		g.Src[e], g.Dst[e], g.Attr[e] = int(i), j, s.win.Corr(int(i), j)
	}
	return g
}
