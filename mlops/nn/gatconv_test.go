package nn_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/nn"
)

// setGAT overwrites the parameters of l with the given row-major values;
// a nil slice leaves that parameter alone.
func setGAT(l *nn.GATConv, w, attSrc, attDst, wEdge, attEdge, bias []float64) {
	for i, v := range [][]float64{w, attSrc, attDst, wEdge, attEdge, bias} {
		if v != nil {
			copy(l.Params()[i].W.RawMatrix().Data, v)
		}
	}
}

func TestGATConvHandForward(t *testing.T) {
	e := math.E
	tests := []struct {
		name    string
		g       nn.Graph
		x       []float64
		bias    float64
		want    []float64
		wantAtt []float64 // edges, then self loops of nodes 0 and 1
	}{
		{
			// Node 0 has no incoming edge: its self loop gets attribute 0
			// and all the attention. Node 1: logits 1+2+0.5 for 0->1 and
			// 2+2+0.5 for its self loop, whose attribute is the mean 0.5.
			name:    "positive logits",
			g:       nn.Graph{N: 2, Src: []int{0}, Dst: []int{1}, Attr: []float64{0.5}},
			x:       []float64{1, 2},
			want:    []float64{1, 1/(1+e) + 2*e/(1+e)},
			wantAtt: []float64{1 / (1 + e), 1, e / (1 + e)},
		},
		{
			// Node 1: logits LeakyReLU(1-2+0.5) = -0.1 and
			// LeakyReLU(-2-2+0.5) = -0.7.
			name:    "negative logits",
			g:       nn.Graph{N: 2, Src: []int{0}, Dst: []int{1}, Attr: []float64{0.5}},
			x:       []float64{1, -2},
			bias:    0.25,
			want:    []float64{1.25, 1/(1+math.Exp(-0.6)) - 2/(1+math.Exp(0.6)) + 0.25},
			wantAtt: []float64{1 / (1 + math.Exp(-0.6)), 1, 1 / (1 + math.Exp(0.6))},
		},
		{
			// Node 0: logits 2+1-1 = 2 for 1->0 and 1+1-1 = 1 for its self
			// loop. Node 1: 1+2+1 = 4 for 0->1 and 2+2+1 = 5.
			name:    "both directions",
			g:       nn.Graph{N: 2, Src: []int{0, 1}, Dst: []int{1, 0}, Attr: []float64{1, -1}},
			x:       []float64{1, 2},
			want:    []float64{2*e/(1+e) + 1/(1+e), 1/(1+e) + 2*e/(1+e)},
			wantAtt: []float64{1 / (1 + e), e / (1 + e), 1 / (1 + e), e / (1 + e)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := nn.NewGATConv("gat", 1, 1, 1, true, rand.New(rand.NewPCG(1, 2)))
			one := []float64{1}
			setGAT(l, one, one, one, one, one, []float64{tt.bias})
			y := l.Forward(&tt.g, mat.NewDense(2, 1, tt.x))
			if got := y.RawMatrix().Data; !floats.EqualApprox(got, tt.want, 1e-14) {
				t.Errorf("Forward = %v, want %v", got, tt.want)
			}
			if got := l.Attention().RawMatrix().Data; !floats.EqualApprox(got, tt.wantAtt, 1e-14) {
				t.Errorf("Attention = %v, want %v", got, tt.wantAtt)
			}
		})
	}
}

// TestGATConvThreeNodes checks a forward pass against numbers worked out by
// hand from PyG's GATConv formula: W = I (in 2, two heads of one feature),
// att_src = (1, 0.5), att_dst = (-1, 2), lin_edge = (1, -1) and
// att_edge = (0.5, 1), so the edge scales are 0.5 and -1 per head. The edge
// list has an input self loop 0->0 that PyG removes, attribute and all.
// Self-loop attributes are the means of the incoming attributes: -1 for
// node 0, 0 for node 1 (no incoming edge) and (3+0)/2 = 1.5 for node 2.
func TestGATConvThreeNodes(t *testing.T) {
	g := nn.Graph{N: 3, Src: []int{0, 1, 2, 0}, Dst: []int{2, 2, 0, 0}, Attr: []float64{3, 0, -1, 100}}
	x := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 2, -1})
	ex := math.Exp
	// Node 0, head 0: 2->0 has 2-1-0.5 = 0.5, the self loop 1-1-0.5 ->
	// -0.1. Head 1: 2->0 has -0.5+0+1 = 0.5, the self loop 0+0+1 = 1.
	a0 := 1 / (1 + ex(-0.6))
	b0 := 1 / (1 + ex(0.5))
	h00, h01 := 2*a0+(1-a0), -b0
	// Node 1 attends only to itself: x' = (0, 1).
	h10, h11 := 0.0, 1.0
	// Node 2, head 0: 0->2 has 1-2+1.5 = 0.5, 1->2 has 0-2+0 -> -0.4, the
	// self loop 2-2+0.75 = 0.75. Head 1: 0-2-3 -> -1, 0.5-2-0 -> -0.3 and
	// -0.5-2-1.5 -> -0.8.
	z0, z1 := ex(0.5)+ex(-0.4)+ex(0.75), ex(-1)+ex(-0.3)+ex(-0.8)
	h20 := (ex(0.5)*1 + ex(-0.4)*0 + ex(0.75)*2) / z0
	h21 := (ex(-1)*0 + ex(-0.3)*1 + ex(-0.8)*-1) / z1
	att := []float64{
		ex(0.5) / z0, ex(-1) / z1, // 0->2
		ex(-0.4) / z0, ex(-0.3) / z1, // 1->2
		a0, b0, // 2->0
		0, 0, // 0->0, removed
		1 - a0, 1 - b0, // self loops
		1, 1,
		ex(0.75) / z0, ex(-0.8) / z1,
	}
	// pyg is what PyG 2.3.1's GATConv(2, 1, heads=2, edge_dim=1) returned
	// in float64 for the same parameters, graph and features.
	tests := []struct {
		name   string
		concat bool
		bias   []float64
		want   []float64
		pyg    []float64
	}{
		{"concat", true, []float64{0.1, -0.2}, []float64{
			h00 + 0.1, h01 - 0.2, h10 + 0.1, h11 - 0.2, h20 + 0.1, h21 - 0.2}, []float64{
			1.7456563062257955, -0.5775406687981455, 0.1, 0.8, 1.4261195876831567, -0.012911248302352518}},
		{"mean", false, []float64{0.1}, []float64{
			(h00+h01)/2 + 0.1, (h10+h11)/2 + 0.1, (h20+h21)/2 + 0.1}, []float64{
			0.7340578187138249, 0.6, 0.856604169690402}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := nn.NewGATConv("gat", 2, 1, 2, tt.concat, rand.New(rand.NewPCG(1, 2)))
			setGAT(l, []float64{1, 0, 0, 1}, []float64{1, 0.5}, []float64{-1, 2},
				[]float64{1, -1}, []float64{0.5, 1}, tt.bias)
			y := l.Forward(&g, x)
			if got := y.RawMatrix().Data; !floats.EqualApprox(got, tt.want, 1e-14) {
				t.Errorf("Forward = %v, want %v", got, tt.want)
			}
			if got := y.RawMatrix().Data; !floats.EqualApprox(got, tt.pyg, 1e-14) {
				t.Errorf("Forward = %v, PyG gave %v", got, tt.pyg)
			}
			if got := l.Attention().RawMatrix().Data; !floats.EqualApprox(got, att, 1e-14) {
				t.Errorf("Attention = %v, want %v", got, att)
			}
		})
	}
}

// gatRefLogits returns the pre-activation attention logit of every edge
// and head, evaluated naively from PyG's formula: g's edges without its
// self loops, then one self loop per node with the mean incoming attribute.
func gatRefLogits(l *nn.GATConv, g *nn.Graph, x *mat.Dense) []float64 {
	var xp mat.Dense
	xp.Mul(x, l.W.W)
	src, dst, attr := []int{}, []int{}, []float64{}
	for k := range g.Src {
		if g.Src[k] != g.Dst[k] {
			src, dst, attr = append(src, g.Src[k]), append(dst, g.Dst[k]), append(attr, g.Attr[k])
		}
	}
	for j := range g.N {
		sum, cnt := 0.0, 0
		for k := range dst {
			if dst[k] == j {
				sum, cnt = sum+attr[k], cnt+1
			}
		}
		src, dst, attr = append(src, j), append(dst, j), append(attr, sum/math.Max(1, float64(cnt)))
	}
	var logits []float64
	for k := range src {
		for h := range l.Heads {
			s := 0.0
			for c := range l.Out {
				col := h*l.Out + c
				s += xp.At(src[k], col)*l.AttSrc.W.At(h, c) + xp.At(dst[k], col)*l.AttDst.W.At(h, c) +
					attr[k]*l.WEdge.W.At(0, col)*l.AttEdge.W.At(h, c)
			}
			logits = append(logits, s)
		}
	}
	return logits
}

// gatRandomGraph returns a graph on n nodes with each ordered pair of
// distinct nodes an edge with probability 1/2, attributes in [-1, 1), and
// one self loop that the layer must ignore.
func gatRandomGraph(n int, rng *rand.Rand) *nn.Graph {
	g := &nn.Graph{N: n, Src: []int{0}, Dst: []int{0}, Attr: []float64{5}}
	for i := range n {
		for j := range n {
			if i != j && rng.IntN(2) == 0 {
				g.Src, g.Dst = append(g.Src, i), append(g.Dst, j)
				g.Attr = append(g.Attr, 2*rng.Float64()-1)
			}
		}
	}
	return g
}

func gatRandomDense(r, c int, rng *rand.Rand) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = 2*rng.Float64() - 1
	}
	return mat.NewDense(r, c, d)
}

// gatRelErr is ||a-b|| / max(||a||, ||b||), or 0 for two zero vectors.
func gatRelErr(a, b []float64) float64 {
	den := math.Max(floats.Norm(a, 2), floats.Norm(b, 2))
	if den == 0 {
		return 0
	}
	return floats.Distance(a, b, 2) / den
}

func TestGATConvGradients(t *testing.T) {
	const n, in, out = 5, 3, 2
	for _, heads := range []int{1, 3} {
		for _, concat := range []bool{true, false} {
			t.Run(fmt.Sprintf("heads=%d/concat=%v", heads, concat), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(heads), 7))
				l := nn.NewGATConv("gat", in, out, heads, concat, rng)
				setGAT(l, nil, nil, nil, nil, nil, gatRandomDense(1, l.OutDim(), rng).RawMatrix().Data)
				g, x := gatAwayFromKink(t, l, rng)
				dy := gatRandomDense(n, l.OutDim(), rng)
				checkGATGradients(t, l, g, x, dy)
			})
		}
	}
}

// gatAwayFromKink draws graphs and inputs until every attention logit is
// at least 1e-3 away from the LeakyReLU's kink at 0, so that central
// differences with steps near 1e-5 see a smooth function.
func gatAwayFromKink(t *testing.T, l *nn.GATConv, rng *rand.Rand) (*nn.Graph, *mat.Dense) {
	t.Helper()
	for range 100 {
		g := gatRandomGraph(5, rng)
		x := gatRandomDense(5, l.W.W.RawMatrix().Rows, rng)
		ok, neg := true, false
		for _, s := range gatRefLogits(l, g, x) {
			ok = ok && math.Abs(s) > 1e-3
			neg = neg || s < 0
		}
		if ok && neg {
			return g, x
		}
	}
	t.Fatal("no graph with logits away from 0 in 100 draws")
	return nil, nil
}

func checkGATGradients(t *testing.T, l *nn.GATConv, g *nn.Graph, x, dy *mat.Dense) {
	t.Helper()
	loss := func() float64 {
		return mat.Sum(gatMulElem(dy, l.Forward(g, x)))
	}
	for _, p := range l.Params() {
		p.ZeroGrad()
	}
	l.Forward(g, x)
	dx := l.Backward(dy)
	settings := &fd.Settings{Formula: fd.Central}

	xd := x.RawMatrix().Data
	orig := append([]float64(nil), xd...)
	num := fd.Gradient(nil, func(v []float64) float64 { copy(xd, v); return loss() }, orig, settings)
	copy(xd, orig)
	e := gatRelErr(num, dx.RawMatrix().Data)
	t.Logf("dL/dx: relative error %.2g", e)
	if e > 1e-6 {
		t.Errorf("dL/dx: relative error %.3g\nnumeric  %v\nanalytic %v", e, num, dx.RawMatrix().Data)
	}
	for _, p := range l.Params() {
		pd := p.W.RawMatrix().Data
		orig := append([]float64(nil), pd...)
		num := fd.Gradient(nil, func(v []float64) float64 { copy(pd, v); return loss() }, orig, settings)
		copy(pd, orig)
		e := gatRelErr(num, p.Grad.RawMatrix().Data)
		t.Logf("dL/d%s: relative error %.2g", p.Name, e)
		if e > 1e-6 {
			t.Errorf("dL/d%s: relative error %.3g\nnumeric  %v\nanalytic %v", p.Name, e, num, p.Grad.RawMatrix().Data)
		}
	}
}

func gatMulElem(a, b *mat.Dense) *mat.Dense {
	var m mat.Dense
	m.MulElem(a, b)
	return &m
}

func TestGATConvBackwardAccumulates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	l := nn.NewGATConv("gat", 3, 2, 2, true, rng)
	g, x := gatRandomGraph(4, rng), gatRandomDense(4, 3, rng)
	dy := gatRandomDense(4, l.OutDim(), rng)
	l.Forward(g, x)
	l.Backward(dy)
	once := make([][]float64, len(l.Params()))
	for i, p := range l.Params() {
		once[i] = append([]float64(nil), p.Grad.RawMatrix().Data...)
	}
	l.Backward(dy)
	for i, p := range l.Params() {
		want := append([]float64(nil), once[i]...)
		floats.Scale(2, want)
		if got := p.Grad.RawMatrix().Data; !floats.EqualApprox(got, want, 1e-12) {
			t.Errorf("%s after two Backward calls = %v, want twice %v", p.Name, got, once[i])
		}
	}
}
