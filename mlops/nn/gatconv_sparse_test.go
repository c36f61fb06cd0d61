package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/nn"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// gatKNNGraph returns a graph on n nodes in which every node has k
// distinct random sources other than itself, with attributes in [-1, 1),
// listed by target as series.Edges lists them.
func gatKNNGraph(n, k int, rng *rand.Rand) *nn.Graph {
	g := &nn.Graph{N: n}
	for j := range n {
		seen := map[int]bool{j: true}
		for len(seen) < k+1 {
			i := rng.IntN(n)
			if !seen[i] {
				seen[i] = true
				g.Src, g.Dst, g.Attr = append(g.Src, i), append(g.Dst, j), append(g.Attr, 2*rng.Float64()-1)
			}
		}
	}
	return g
}

// gatDense is the layer's forward pass computed densely, as a reference
// for the sparse one: an n x n matrix per head of attention logits, with
// -Inf where there is no edge, a softmax over each target's row, and the
// output as the product of that matrix with x W. It costs O(n^2) per head.
func gatDense(l *nn.GATConv, g *nn.Graph, x *mat.Dense) (y *mat.Dense, att []*mat.Dense) {
	n := g.N
	var xp mat.Dense
	xp.Mul(x, l.W.W)
	attr, edge := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil) // by target, source
	sum, cnt := make([]float64, n), make([]float64, n)
	for k, s := range g.Src {
		attr.Set(g.Dst[k], s, g.Attr[k])
		edge.Set(g.Dst[k], s, 1)
		sum[g.Dst[k]] += g.Attr[k]
		cnt[g.Dst[k]]++
	}
	for j := range n {
		attr.Set(j, j, sum[j]/math.Max(1, cnt[j]))
		edge.Set(j, j, 1)
	}
	y = mat.NewDense(n, l.OutDim(), nil)
	for h := range l.Heads {
		cols := xp.Slice(0, n, h*l.Out, (h+1)*l.Out)
		var sSrc, sDst mat.VecDense
		sSrc.MulVec(cols, l.AttSrc.W.RowView(h))
		sDst.MulVec(cols, l.AttDst.W.RowView(h))
		scale := 0.0
		for c := range l.Out {
			scale += l.WEdge.W.At(0, h*l.Out+c) * l.AttEdge.W.At(h, c)
		}
		a := mat.NewDense(n, n, nil)
		for j := range n {
			row := a.RawRowView(j)
			for i := range n {
				row[i] = math.Inf(-1)
				if edge.At(j, i) != 0 {
					s := sSrc.AtVec(i) + sDst.AtVec(j) + attr.At(j, i)*scale
					row[i] = max(s, 0.2*s)
				}
			}
			mx := floats.Max(row)
			for i := range row {
				row[i] = math.Exp(row[i] - mx)
			}
			floats.Scale(1/floats.Sum(row), row)
		}
		att = append(att, a)
		var out mat.Dense
		out.Mul(a, cols)
		if l.Concat {
			y.Slice(0, n, h*l.Out, (h+1)*l.Out).(*mat.Dense).Copy(&out)
		} else {
			out.Scale(1/float64(l.Heads), &out)
			y.Add(y, &out)
		}
	}
	for j := range n {
		floats.Add(y.RawRowView(j), l.Bias.W.RawRowView(0))
	}
	return y, att
}

// TestGATConvSparseMatchesDense checks the layer on 1,000 nodes with 10
// sources each, the graphs a neighbour-limited model sees, against the
// dense reference: outputs and attention agree to rounding, with one and
// with several heads, concatenated and averaged.
func TestGATConvSparseMatchesDense(t *testing.T) {
	const n, k, in = 1000, 10, 4
	for _, tt := range []struct {
		heads, out int
		concat     bool
	}{{1, 16, false}, {3, 5, true}, {2, 1, false}} {
		rng := rand.New(rand.NewPCG(11, uint64(tt.heads)))
		l := nn.NewGATConv("sparse", in, tt.out, tt.heads, tt.concat, rng)
		setGAT(l, nil, nil, nil, nil, nil, gatRandomDense(1, l.OutDim(), rng).RawMatrix().Data)
		g, x := gatKNNGraph(n, k, rng), gatRandomDense(n, in, rng)
		got := l.Forward(g, x)
		want, att := gatDense(l, g, x)
		if e := gatRelErr(got.RawMatrix().Data, want.RawMatrix().Data); e > 1e-13 {
			t.Errorf("heads %d concat %v: output differs from the dense reference by %g relative", tt.heads, tt.concat, e)
		}
		sparse := l.Attention()
		if r, _ := sparse.Dims(); r != len(g.Src)+n {
			t.Fatalf("attention has %d rows, want %d", r, len(g.Src)+n)
		}
		worst := 0.0
		for h := range tt.heads {
			for e := range len(g.Src) + n {
				src, dst := e-len(g.Src), e-len(g.Src) // a self loop
				if e < len(g.Src) {
					src, dst = g.Src[e], g.Dst[e]
				}
				worst = max(worst, math.Abs(sparse.At(e, h)-att[h].At(dst, src)))
			}
		}
		if worst > 1e-14 {
			t.Errorf("heads %d concat %v: attention differs from the dense reference by up to %g", tt.heads, tt.concat, worst)
		}
	}
}
