package gat_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// noise is a T x N matrix of standard normal values drawn from seed.
func noise(seed uint64, rows, n int) series.Matrix {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = rng.NormFloat64()
	}
	return m
}

// tinyModel trains two epochs of a two-head network on m, keeping
// neighbors edges per node (0: all).
func tinyModel(t *testing.T, m series.Matrix, neighbors int) (*gat.Model, []int) {
	t.Helper()
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Heads, cfg.Hidden, cfg.Neighbors = 2, 2, []int{8}, neighbors
	model, err := gat.Train(context.Background(), cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, test, err := series.Split(m, cfg.Window, cfg.TrainFraction)
	if err != nil {
		t.Fatal(err)
	}
	return model, test
}

// checkEdges fails unless edges are sorted by target then source, hold
// each target's self loop, and have weights in (0, 1]; it returns the sum
// of the weights into each target and the number of edges into it.
func checkEdges(t *testing.T, edges []gat.Edge, n int) (sums []float64, degree []int) {
	t.Helper()
	sums, degree, self := make([]float64, n), make([]int, n), make([]bool, n)
	for k, e := range edges {
		if k > 0 && (e.Target < edges[k-1].Target || e.Target == edges[k-1].Target && e.Source <= edges[k-1].Source) {
			t.Fatalf("edge %d %+v follows %+v: not sorted by target, then source", k, e, edges[k-1])
		}
		if !(e.Weight > 0 && e.Weight <= 1) {
			t.Errorf("edge %+v: weight outside (0, 1]", e)
		}
		sums[e.Target] += e.Weight
		degree[e.Target]++
		self[e.Target] = self[e.Target] || e.Source == e.Target
	}
	for j, ok := range self {
		if !ok {
			t.Errorf("target %d has no self loop", j)
		}
	}
	return sums, degree
}

// TestAttentionCompleteGraph checks that without a neighbour limit every
// ordered pair appears once and the weights into each target sum to 1.
func TestAttentionCompleteGraph(t *testing.T) {
	const n = 5
	m := noise(1, 40, n)
	model, test := tinyModel(t, m, 0)
	edges, err := model.Attention(m, test)
	if err != nil {
		t.Fatal(err)
	}
	if len(edges) != n*n {
		t.Fatalf("%d edges, want %d", len(edges), n*n)
	}
	sums, _ := checkEdges(t, edges, n)
	for j, s := range sums {
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("weights into %d sum to %v, want 1", j, s)
		}
	}
}

// TestAttentionNeighborLimit checks that with a limit each target has its
// self loop and between limit and n-1 other sources over several samples,
// and that one sample's weights into each target sum to 1.
func TestAttentionNeighborLimit(t *testing.T) {
	const n, limit = 6, 2
	m := noise(2, 40, n)
	model, test := tinyModel(t, m, limit)
	edges, err := model.Attention(m, test)
	if err != nil {
		t.Fatal(err)
	}
	_, degree := checkEdges(t, edges, n)
	for j, d := range degree {
		if d < limit+1 || d > n {
			t.Errorf("target %d has %d edges, want %d..%d", j, d, limit+1, n)
		}
	}
	one, err := model.Attention(m, test[:1])
	if err != nil {
		t.Fatal(err)
	}
	sums, degree := checkEdges(t, one, n)
	for j := range n {
		if degree[j] != limit+1 || math.Abs(sums[j]-1) > 1e-12 {
			t.Errorf("one sample: target %d has %d edges summing to %v, want %d summing to 1", j, degree[j], sums[j], limit+1)
		}
	}
}

// TestAttentionPermutesWithEntities checks that relabelling the entities
// relabels the attention and changes nothing else: the network shares its
// weights across nodes.
func TestAttentionPermutesWithEntities(t *testing.T) {
	for _, neighbors := range []int{0, 2} {
		const n = 5
		m := noise(3, 36, n)
		model, test := tinyModel(t, m, neighbors)
		perm := []int{3, 0, 4, 1, 2} // entity i of m is entity perm[i] of p
		p := series.Matrix{T: m.T, N: n, Values: make([]float64, len(m.Values))}
		for r := range m.T {
			for i := range n {
				p.Values[r*n+perm[i]] = m.At(r, i)
			}
		}
		want, err := model.Attention(m, test)
		if err != nil {
			t.Fatal(err)
		}
		got, err := model.Attention(p, test)
		if err != nil {
			t.Fatal(err)
		}
		weight := map[[2]int]float64{}
		for _, e := range got {
			weight[[2]int{e.Source, e.Target}] = e.Weight
		}
		if len(got) != len(want) {
			t.Fatalf("neighbors %d: %d edges after permuting, %d before", neighbors, len(got), len(want))
		}
		for _, e := range want {
			w, ok := weight[[2]int{perm[e.Source], perm[e.Target]}]
			if !ok || math.Abs(w-e.Weight) > 1e-12 {
				t.Errorf("neighbors %d: edge %+v has weight %v (present %v) after permuting", neighbors, e, w, ok)
			}
		}
	}
}

// TestAttentionErrors checks the data that Attention refuses.
func TestAttentionErrors(t *testing.T) {
	m := noise(4, 30, 4)
	model, _ := tinyModel(t, m, 0)
	if _, err := model.Attention(noise(4, 30, 3), []int{10}); err == nil {
		t.Error("3 entities for a model of 4: no error")
	}
	for _, row := range []int{model.Config.Window - 1, m.T} {
		if _, err := model.Attention(m, []int{row}); !errors.Is(err, series.ErrSampleRange) {
			t.Errorf("target row %d: error %v, want ErrSampleRange", row, err)
		}
	}
}

// TestAttentionMemoryNeighbors: with a neighbour limit Attention's
// accumulator grows with the edges, not with N x N: 2,000 entities with 3
// neighbours allocate far less than one N x N matrix of float64 (32 MB).
func TestAttentionMemoryNeighbors(t *testing.T) {
	const n = 2000
	m := noise(5, 14, n)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Heads, cfg.Hidden, cfg.Neighbors, cfg.Highway, cfg.Workers = 1, 1, []int{2}, 3, 0, 1
	model, err := gat.Train(context.Background(), cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	edges, err := model.Attention(m, []int{12, 13})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	checkEdges(t, edges, n)
	if got := after.TotalAlloc - before.TotalAlloc; got > 8*n*n/2 {
		t.Errorf("Attention allocated %d MB for %d entities with 3 neighbours; an N x N matrix is %d MB", got>>20, n, 8*n*n>>20)
	}
}
