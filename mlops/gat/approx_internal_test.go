package gat

import (
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// TestApproxNeighborsRule: the approximate search is used past
// ApproxNeighborsEntities entities with a neighbour limit below N-1 only,
// and train_gat's NOTICE is sent exactly then (not without a graph),
// naming the entities, the limit and neighbors.
func TestApproxNeighborsRule(t *testing.T) {
	const at = ApproxNeighborsEntities
	for _, c := range []struct {
		n, neighbors  int
		noGraph, want bool
	}{
		{at, 10, false, false},
		{at + 1, 10, false, true},
		{at + 1, 1, false, true},
		{at + 1, 0, false, false},
		{at + 1, at, false, false},
		{at + 1, at + 7, false, false},
		{at + 1, 10, true, false},
		{100000, 10, false, true},
	} {
		cfg := DefaultConfig()
		cfg.Neighbors, cfg.NoGraph = c.neighbors, c.noGraph
		if got := approxNeighbors(c.n, min(c.neighbors, c.n-1)); got != c.want && !c.noGraph {
			t.Errorf("approxNeighbors(%d, %d) = %v, want %v", c.n, c.neighbors, got, c.want)
		}
		if b := ApproxNeighborsBytes(c.n, min(c.neighbors, c.n-1), 2); (b > 0) != (c.want && !c.noGraph) && !c.noGraph {
			t.Errorf("ApproxNeighborsBytes(%d, %d, 2) = %d, want it above 0 only with the approximate search", c.n, c.neighbors, b)
		}
		var said []string
		NoticeApproxNeighbors(cfg, c.n, func(s string) { said = append(said, s) })
		if (len(said) == 1) != c.want || len(said) > 1 {
			t.Errorf("%d entities, neighbors %d, no graph %v: NOTICEs %q, want one: %v", c.n, c.neighbors, c.noGraph, said, c.want)
			continue
		}
		if c.want {
			for _, part := range []string{"approximate search", "more than 20000", "neighbors := "} {
				if !strings.Contains(said[0], part) {
					t.Errorf("NOTICE %q lacks %q", said[0], part)
				}
			}
		}
	}
}

// TestSparsePastApproxSize: past ApproxNeighborsEntities entities the
// sampler's neighbour-limited graph lists the approximate search's
// sources (series.DefaultNear) target by target, each edge weighed by
// Corr, and a forecast's receptive field keeps the same sources of its
// entities, so that one entity's forecast reads the graph the whole
// forecast does (checked on a target whose approximate sources are not
// its exact ones).
func TestSparsePastApproxSize(t *testing.T) {
	const n, rows = ApproxNeighborsEntities + 1, 10
	m := series.Synthetic(n, rows, 7, 12)
	cfg := DefaultConfig()
	cfg.Neighbors, cfg.Target, cfg.Highway = 3, "level", 0
	s := newSampler(m, cfg, nil, nil, 0)
	g := s.graph(rows)
	var w series.Windows
	w.Set(m, rows, cfg.Window)
	want := w.NearAllOver(nil, cfg.Neighbors, 1, series.DefaultNear)
	if len(g.Src) != len(want) {
		t.Fatalf("%d edges, want %d", len(g.Src), len(want))
	}
	for e, i := range want {
		j := e / cfg.Neighbors
		if g.Src[e] != int(i) || g.Dst[e] != j || g.Attr[e] != w.Corr(int(i), j) {
			t.Fatalf("edge %d is %d->%d (%v), want %d->%d (%v)", e, g.Src[e], g.Dst[e], g.Attr[e], i, j, w.Corr(int(i), j))
		}
	}
	k := cfg.Neighbors
	j := -1
	for c := range n { // a target whose approximate sources are not the exact ones
		if !slices.Equal(w.Strongest(nil, c, k), want[c*k:(c+1)*k]) {
			j = c
			break
		}
	}
	if j < 0 {
		t.Fatal("the approximate search found every target's exact sources: the field's are not told apart")
	}
	model := &Model{Config: cfg, Entities: n}
	nodes, fg := model.field(m, []int{j})
	var got []int32
	for e, d := range fg.Dst {
		if nodes[d] == j {
			got = append(got, int32(nodes[fg.Src[e]]))
		}
	}
	slices.Sort(got)
	if src := want[j*k : (j+1)*k]; !slices.Equal(got, src) {
		t.Errorf("the field's sources of entity %d are %v, the graph's %v", j, got, src)
	}
}
