package gat

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

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
