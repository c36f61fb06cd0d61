package nn

import (
	"errors"
	"fmt"
)

// ErrGraph is the error that Graph.Validate wraps when a graph is malformed.
var ErrGraph = errors.New("nn: invalid graph")

// Graph is a directed graph with one scalar attribute per edge, the input
// of GATConv. Its nodes are 0..N-1; edge k runs from the source node Src[k]
// to the target node Dst[k] and carries the attribute Attr[k]. A message
// flows from source to target: a node's output attends over its incoming
// edges.
//
// The edge list should not contain self loops: GATConv adds exactly one per
// node itself. A self loop that is present anyway is ignored, attribute and
// all, as PyTorch Geometric's remove_self_loops ignores it. Parallel edges
// are kept, each its own term of the softmax, as in PyTorch Geometric.
type Graph struct {
	N    int
	Src  []int
	Dst  []int
	Attr []float64
}

// Validate reports, as an error wrapping ErrGraph, the first way in which g
// is malformed: a negative node count, edge slices of different lengths,
// or an endpoint outside 0..N-1.
func (g *Graph) Validate() error {
	if g.N < 0 {
		return fmt.Errorf("%w: %d nodes", ErrGraph, g.N)
	}
	if len(g.Dst) != len(g.Src) || len(g.Attr) != len(g.Src) {
		return fmt.Errorf("%w: %d sources, %d targets, %d attributes",
			ErrGraph, len(g.Src), len(g.Dst), len(g.Attr))
	}
	for k, s := range g.Src {
		d := g.Dst[k]
		if s < 0 || s >= g.N || d < 0 || d >= g.N {
			return fmt.Errorf("%w: edge %d runs %d -> %d outside 0..%d",
				ErrGraph, k, s, d, g.N-1)
		}
	}
	return nil
}

// gatAdj is a Graph with its self loops replaced by one per node, grouped
// by target node. The slots of target j are ptr[j]..ptr[j+1]-1; the last of
// them is j's own self loop. Slot e comes from source node src[e], carries
// attribute attr[e] and is edge edge[e] of the graph, where the self loop of
// node j counts as edge len(g.Src)+j.
type gatAdj struct {
	ptr  []int
	src  []int
	attr []float64
	edge []int
	next []int     // scratch of build: each target's next free slot
	sum  []float64 // scratch of build: each target's sum of attributes
}

// build sets a to g's edges grouped by target, reusing a's storage: it
// drops g's self loops and appends one self loop per node whose attribute
// is the mean of the attributes of the node's remaining incoming edges, or
// 0 for a node with none. This is PyTorch Geometric's add_self_loops with
// fill_value "mean": it scatters the attributes onto the targets,
// edge_index[1], and divides the sum by the count clamped to at least 1.
// g must be valid.
func (a *gatAdj) build(g *Graph) {
	a.count(g)
	m := a.ptr[g.N]
	a.src, a.attr, a.edge = resizedInts(a.src, m), resized(a.attr, m), resizedInts(a.edge, m)
	a.fill(g)
	for j := range g.N {
		e := a.ptr[j+1] - 1
		mean := 0.0
		if cnt := e - a.ptr[j]; cnt > 0 {
			mean = a.sum[j] / float64(cnt)
		}
		a.src[e], a.attr[e], a.edge[e] = j, mean, len(g.Src)+j
	}
}

// count sets ptr from the number of g's edges into each target, self loops
// dropped and one added per node. It counts a run of edges into one
// target, the order series.Edges lists them in, in a local: counting
// through ptr would make every edge wait for the store of the one before.
func (a *gatAdj) count(g *Graph) {
	a.ptr = resizedInts(a.ptr, g.N+1)
	clear(a.ptr)
	dst := g.Dst[:len(g.Src)]
	run, cnt := -1, 0
	for k, s := range g.Src {
		d := dst[k]
		if s == d {
			continue
		}
		if d != run {
			if run >= 0 {
				a.ptr[run+1] += cnt
			}
			run, cnt = d, 0
		}
		cnt++
	}
	if run >= 0 {
		a.ptr[run+1] += cnt
	}
	for j := range g.N {
		a.ptr[j+1] += a.ptr[j] + 1 // the +1 is j's self loop
	}
}

// fill puts each of g's edges but its self loops in the next free slot of
// its target, in edge order, and sums each target's attributes in that
// order into sum. Like count it keeps the current run of one target in
// locals.
func (a *gatAdj) fill(g *Graph) {
	a.next = append(a.next[:0], a.ptr[:g.N]...)
	a.sum = cleared(a.sum, g.N)
	dst, attr := g.Dst[:len(g.Src)], g.Attr[:len(g.Src)]
	run, e, sum := -1, 0, 0.0
	for k, s := range g.Src {
		d := dst[k]
		if s == d {
			continue
		}
		if d != run {
			if run >= 0 {
				a.next[run], a.sum[run] = e, sum
			}
			run, e, sum = d, a.next[d], a.sum[d]
		}
		a.src[e], a.attr[e], a.edge[e] = s, attr[k], k
		sum += attr[k]
		e++
	}
	if run >= 0 {
		a.next[run], a.sum[run] = e, sum
	}
}

// Adjacency is a Graph as GATConv attends over it: grouped by target, its
// self loops replaced by one per node. The layers of a network that run on
// one graph can share one Adjacency (see GATConv.ForwardOn) instead of each
// grouping the graph again. The zero value is empty; an Adjacency must not
// be Set again while a layer that ran forward on it has yet to run
// Backward or Attention.
type Adjacency struct {
	adj   gatAdj
	n     int // nodes
	edges int // len(Src) of the graph
	built bool
}

// Set makes a the adjacency of g, reusing a's storage, or returns g's
// Validate error and leaves a empty. When g has the nodes and the edges,
// in the same order, of the graph a was last set to and no self loop
// (as a training run's complete graph keeps them from sample to sample,
// changing only the attributes), Set only takes the attributes and the
// self loops' means anew: checking the edges against a's costs less
// than grouping them, and the result is the same to the bit.
func (a *Adjacency) Set(g *Graph) error {
	if a.built && a.n == g.N && a.edges == len(g.Src) && len(g.Dst) == len(g.Src) && len(g.Attr) == len(g.Src) &&
		a.adj.ptr[g.N] == len(g.Src)+g.N && a.adj.reweigh(g) {
		return nil
	}
	a.built = false
	if err := g.Validate(); err != nil {
		return err
	}
	a.adj.build(g)
	a.n, a.edges, a.built = g.N, len(g.Src), true
	return nil
}

// reweigh sets the attributes of a's slots from g and its self loops'
// means, summing each target's attributes in slot order, the edge order
// build summed them in, if every slot's edge of g still runs from the
// slot's source to its target; it reports whether they all do. a must
// have a slot for every edge of g (no self loop was dropped), so that
// edges matching their slots are all of g's edges, where build put them.
func (a *gatAdj) reweigh(g *Graph) bool {
	src, dst, attr := g.Src, g.Dst[:len(g.Src)], g.Attr[:len(g.Src)]
	for j := range len(a.ptr) - 1 {
		lo, hi := a.ptr[j], a.ptr[j+1]-1 // hi is j's self loop
		sum := 0.0
		for e := lo; e < hi; e++ {
			k := a.edge[e]
			if src[k] != a.src[e] || dst[k] != j {
				return false // attributes already taken are taken again by build
			}
			a.attr[e] = attr[k]
			sum += attr[k]
		}
		mean := 0.0
		if cnt := hi - lo; cnt > 0 {
			mean = sum / float64(cnt)
		}
		a.attr[hi] = mean
	}
	return true
}
