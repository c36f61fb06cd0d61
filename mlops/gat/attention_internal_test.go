package gat

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestAttentionByHand sets the last layer's attention vectors so that its
// coefficients can be computed by hand, and compares. With all three zero
// every logit is 0 and a target attends uniformly to its n-1 sources and
// itself. With only the node vectors zero, the logit of an edge is
// LeakyReLU(attr * c_h), c_h = <WEdge_h, AttEdge_h>, and a self loop's
// attribute is the mean of the attributes into its node; the expected
// weight is then the softmax per target, averaged over the heads.
func TestAttentionByHand(t *testing.T) {
	const n = 4
	rng := rand.New(rand.NewPCG(9, 10))
	m := series.Matrix{T: 30, N: n, Values: make([]float64, 30*n)}
	for i := range m.Values {
		m.Values[i] = rng.NormFloat64()
	}
	cfg := DefaultConfig()
	cfg.Epochs, cfg.Heads, cfg.Hidden = 1, 2, []int{3}
	trained, err := Train(context.Background(), cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, uniform := range []bool{true, false} {
		model, c := handAttention(t, trained, uniform)
		row := m.T - 1
		got, err := model.Attention(m, []int{row})
		if err != nil {
			t.Fatal(err)
		}
		net, _ := model.net()
		s, _ := model.newSampler(m)
		s.predict(net, row)
		want := softmaxByHand(s.last.Src, s.last.Dst, s.last.Attr, n, c)
		if len(got) != n*n {
			t.Fatalf("uniform %v: %d edges, want %d", uniform, len(got), n*n)
		}
		for _, e := range got {
			w := want[e.Target*n+e.Source]
			if uniform {
				w = 1.0 / n
			}
			if math.Abs(e.Weight-w) > 1e-12 {
				t.Errorf("uniform %v: edge %d -> %d weighs %v, by hand %v", uniform, e.Source, e.Target, e.Weight, w)
			}
		}
	}
}

// handAttention returns a copy of model whose last layer has zero node
// attention vectors, and a zero edge vector too if uniform, with c_h for
// each head.
func handAttention(t *testing.T, model *Model, uniform bool) (*Model, []float64) {
	t.Helper()
	net, err := model.net()
	if err != nil {
		t.Fatal(err)
	}
	conv := net.layers[len(net.layers)-1].conv
	conv.AttSrc.W.Zero()
	conv.AttDst.W.Zero()
	if uniform {
		conv.AttEdge.W.Zero()
	}
	c := make([]float64, conv.Heads)
	for h := range c {
		for o := range conv.Out {
			c[h] += conv.WEdge.W.At(0, h*conv.Out+o) * conv.AttEdge.W.At(h, o)
		}
	}
	out := &Model{Config: model.Config, Entities: model.Entities}
	for _, p := range net.Params() {
		out.Weights = append(out.Weights, append([]float64(nil), p.W.RawMatrix().Data...))
	}
	return out, c
}

// softmaxByHand returns the head-averaged attention of the graph (src,
// dst, attr) on n nodes with edge-only logits LeakyReLU(attr * c[h]), at
// target*n+source.
func softmaxByHand(src, dst []int, attr []float64, n int, c []float64) []float64 {
	mean, deg := make([]float64, n), make([]int, n)
	for k, j := range dst {
		mean[j] += attr[k]
		deg[j]++
	}
	for j := range n {
		if deg[j] > 0 {
			mean[j] /= float64(deg[j])
		}
	}
	leaky := func(v float64) float64 { return max(v, 0.2*v) }
	out := make([]float64, n*n)
	for _, ch := range c {
		denom := make([]float64, n)
		for k, j := range dst {
			denom[j] += math.Exp(leaky(attr[k] * ch))
		}
		for j := range n {
			denom[j] += math.Exp(leaky(mean[j] * ch))
			out[j*n+j] += math.Exp(leaky(mean[j]*ch)) / denom[j] / float64(len(c))
		}
		for k, j := range dst {
			out[j*n+src[k]] += math.Exp(leaky(attr[k]*ch)) / denom[j] / float64(len(c))
		}
	}
	return out
}

// TestAttentionWorkers checks that Attention gives, bit for bit, what one
// goroutine gives that predicts the rows in order with the model's
// anchor and adds each sample's attention as it goes, whatever the
// number of workers: with the complete graph and with a neighbour limit,
// anchored to a fitted baseline, over more rows than one round holds.
func TestAttentionWorkers(t *testing.T) {
	const n, rows, season = 6, 160, 12
	rng := rand.New(rand.NewPCG(3, 4))
	m := series.Matrix{N: n, T: rows, Values: make([]float64, n*rows)}
	for r := range rows {
		for i := range n {
			m.Values[r*n+i] = math.Sin(2*math.Pi*float64(r)/season+float64(i)) + 0.1*rng.NormFloat64()
		}
	}
	for _, neighbors := range []int{0, 2} {
		cfg := DefaultConfig()
		cfg.Epochs, cfg.Heads, cfg.Hidden, cfg.Neighbors, cfg.Season, cfg.Anchor = 1, 2, []int{4}, neighbors, season, string(baseline.KindETS)
		trained, err := Train(context.Background(), cfg, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _, test, err := trained.Config.Samples(m)
		if err != nil {
			t.Fatal(err)
		}
		rows := append(slices.Clone(test), test[:5]...) // a row twice counts twice
		net, s, err := trained.prepared(m)
		if err != nil {
			t.Fatal(err)
		}
		if s.anchor == nil {
			t.Fatal("the model has no fitted anchor")
		}
		last := net.layers[len(net.layers)-1].conv
		acc := newAttentionSum(n, 0) // dense, whatever the neighbours: the sparse sums must equal it
		for k, row := range rows {
			s.predict(net, row)
			var one sampleAttention
			one.set(s.last, last, n)
			acc.addSample(&one, k+1)
		}
		want := strongestDense(acc, neighbors)
		for _, workers := range []int{1, 2, 3, 5} {
			model := *trained
			model.Config.Workers = workers
			got, err := model.Attention(m, rows)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) <= 8*workers {
				t.Fatalf("%d rows fit in one round of %d workers", len(rows), workers)
			}
			if !slices.Equal(got, want) {
				t.Errorf("neighbors %d, %d workers: the attention differs from one goroutine's (%d edges, want %d)", neighbors, workers, len(got), len(want))
			}
		}
	}
}

// strongestDense is what Attention keeps of dense's pairs under a
// neighbour limit of keep (all of them at 0): per target, its self loop
// and the keep other sources of the largest summed weight, the lower
// source first among equals, in the order of targets, then sources.
func strongestDense(dense *attentionSum, keep int) []Edge {
	if keep == 0 {
		return dense.edges()
	}
	var out []Edge
	n := dense.n
	for j := range n {
		var others []int
		for i := range n {
			if i != j && dense.count[j*n+i] > 0 {
				others = append(others, i)
			}
		}
		slices.SortStableFunc(others, func(x, y int) int { return cmp.Compare(dense.sum[j*n+y], dense.sum[j*n+x]) })
		chosen := append(others[:min(keep, len(others))], j)
		slices.Sort(chosen)
		for _, i := range chosen {
			if c := dense.count[j*n+i]; c > 0 {
				out = append(out, Edge{Source: i, Target: j, Weight: dense.sum[j*n+i] / float64(c)})
			}
		}
	}
	return out
}
