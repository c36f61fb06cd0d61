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
}

// gatBuildAdj groups g's edges by target, drops its self loops and appends
// one self loop per node whose attribute is the mean of the attributes of
// the node's remaining incoming edges, or 0 for a node with none. This is
// PyTorch Geometric's add_self_loops with fill_value "mean": it scatters the
// attributes onto the targets, edge_index[1], and divides the sum by the
// count clamped to at least 1. g must be valid.
func gatBuildAdj(g *Graph) gatAdj {
	ptr := make([]int, g.N+1)
	for k, s := range g.Src {
		if d := g.Dst[k]; s != d {
			ptr[d+1]++
		}
	}
	for j := range g.N {
		ptr[j+1] += ptr[j] + 1 // the +1 is j's self loop
	}
	m := ptr[g.N]
	a := gatAdj{ptr: ptr, src: make([]int, m), attr: make([]float64, m), edge: make([]int, m)}
	next := make([]int, g.N)
	copy(next, ptr[:g.N])
	for k, s := range g.Src {
		d := g.Dst[k]
		if s == d {
			continue
		}
		e := next[d]
		next[d]++
		a.src[e], a.attr[e], a.edge[e] = s, g.Attr[k], k
	}
	for j := range g.N {
		e := ptr[j+1] - 1
		sum := 0.0
		for _, v := range a.attr[ptr[j]:e] {
			sum += v
		}
		mean := 0.0
		if cnt := e - ptr[j]; cnt > 0 {
			mean = sum / float64(cnt)
		}
		a.src[e], a.attr[e], a.edge[e] = j, mean, len(g.Src)+j
	}
	return a
}
