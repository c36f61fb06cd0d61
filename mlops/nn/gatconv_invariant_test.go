package nn_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/nn"
)

// TestGATConvZeroAttention checks that with all attention vectors zero
// every logit is 0, so each node's output is the plain mean of x W over its
// incoming edges and its own self loop (averaged over heads when the heads
// are averaged), plus the bias.
func TestGATConvZeroAttention(t *testing.T) {
	const n, in, out, heads = 6, 4, 3, 2
	for _, concat := range []bool{true, false} {
		t.Run(fmt.Sprintf("concat=%v", concat), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			l := nn.NewGATConv("gat", in, out, heads, concat, rng)
			zero := make([]float64, heads*out)
			setGAT(l, nil, zero, zero, nil, zero, gatRandomDense(1, l.OutDim(), rng).RawMatrix().Data)
			g, x := gatRandomGraph(n, rng), gatRandomDense(n, in, rng)
			got := l.Forward(g, x)

			var xp mat.Dense
			xp.Mul(x, l.W.W)
			want := mat.NewDense(n, l.OutDim(), nil)
			for j := range n {
				sum := append([]float64(nil), xp.RawRowView(j)...)
				cnt := 1.0
				for k := range g.Src {
					if g.Dst[k] == j && g.Src[k] != j {
						floats.Add(sum, xp.RawRowView(g.Src[k]))
						cnt++
					}
				}
				floats.Scale(1/cnt, sum)
				row := want.RawRowView(j)
				for h := range heads {
					if concat {
						copy(row[h*out:], sum[h*out:(h+1)*out])
					} else {
						floats.AddScaled(row, 1.0/heads, sum[h*out:(h+1)*out])
					}
				}
				floats.Add(row, l.Bias.W.RawRowView(0))
			}
			if !mat.EqualApprox(got, want, 1e-14) {
				t.Errorf("Forward =\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(want))
			}
		})
	}
}

// TestGATConvPermutation checks that renumbering the nodes (and shuffling
// the edge list) renumbers the output rows and leaves every edge's
// attention unchanged, and that dL/dx permutes the same way.
func TestGATConvPermutation(t *testing.T) {
	const n, in = 7, 3
	rng := rand.New(rand.NewPCG(8, 9))
	l := nn.NewGATConv("gat", in, 2, 3, true, rng)
	g, x := gatRandomGraph(n, rng), gatRandomDense(n, in, rng)
	dy := gatRandomDense(n, l.OutDim(), rng)
	y := l.Forward(g, x)
	att := l.Attention()
	dx := l.Backward(dy)

	perm, order := rng.Perm(n), rng.Perm(len(g.Src))
	pg := &nn.Graph{N: n}
	for _, k := range order {
		pg.Src = append(pg.Src, perm[g.Src[k]])
		pg.Dst = append(pg.Dst, perm[g.Dst[k]])
		pg.Attr = append(pg.Attr, g.Attr[k])
	}
	px, pdy := mat.NewDense(n, in, nil), mat.NewDense(n, l.OutDim(), nil)
	for i := range n {
		px.SetRow(perm[i], x.RawRowView(i))
		pdy.SetRow(perm[i], dy.RawRowView(i))
	}
	py := l.Forward(pg, px)
	patt := l.Attention()
	pdx := l.Backward(pdy)

	for i := range n {
		if !floats.EqualApprox(py.RawRowView(perm[i]), y.RawRowView(i), 1e-12) {
			t.Errorf("output row %d moved to %d: %v, want %v", i, perm[i], py.RawRowView(perm[i]), y.RawRowView(i))
		}
		if !floats.EqualApprox(pdx.RawRowView(perm[i]), dx.RawRowView(i), 1e-12) {
			t.Errorf("dL/dx row %d moved to %d: %v, want %v", i, perm[i], pdx.RawRowView(perm[i]), dx.RawRowView(i))
		}
		if !floats.EqualApprox(patt.RawRowView(len(g.Src)+perm[i]), att.RawRowView(len(g.Src)+i), 1e-12) {
			t.Errorf("self-loop attention of node %d changed", i)
		}
	}
	for pk, k := range order {
		if !floats.EqualApprox(patt.RawRowView(pk), att.RawRowView(k), 1e-12) {
			t.Errorf("attention of edge %d (now %d) = %v, want %v", k, pk, patt.RawRowView(pk), att.RawRowView(k))
		}
	}
}

// TestGATConvAttentionSums checks that the attention into every node sums
// to 1 per head, and that an input self loop gets none and changes nothing.
func TestGATConvAttentionSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	l := nn.NewGATConv("gat", 3, 2, 3, false, rng)
	g, x := gatRandomGraph(6, rng), gatRandomDense(6, 3, rng)
	y := l.Forward(g, x)
	att := l.Attention()
	sums := mat.NewDense(g.N, l.Heads, nil)
	for k := range g.Src {
		if g.Src[k] == g.Dst[k] {
			if got := att.RawRowView(k); !floats.Equal(got, make([]float64, l.Heads)) {
				t.Errorf("input self loop %d has attention %v, want zeros", k, got)
			}
			continue
		}
		floats.Add(sums.RawRowView(g.Dst[k]), att.RawRowView(k))
	}
	for j := range g.N {
		floats.Add(sums.RawRowView(j), att.RawRowView(len(g.Src)+j))
		for h := range l.Heads {
			if s := sums.At(j, h); s < 1-1e-14 || s > 1+1e-14 {
				t.Errorf("attention into node %d, head %d sums to %v", j, h, s)
			}
		}
	}

	clean := &nn.Graph{N: g.N}
	for k := range g.Src {
		if g.Src[k] != g.Dst[k] {
			clean.Src, clean.Dst = append(clean.Src, g.Src[k]), append(clean.Dst, g.Dst[k])
			clean.Attr = append(clean.Attr, g.Attr[k])
		}
	}
	if got := l.Forward(clean, x); !mat.Equal(got, y) {
		t.Errorf("dropping the input self loops changed the output")
	}
}

func TestGraphValidate(t *testing.T) {
	tests := []struct {
		name    string
		g       nn.Graph
		wantErr bool
	}{
		{"empty", nn.Graph{N: 0}, false},
		{"ok", nn.Graph{N: 2, Src: []int{0, 1}, Dst: []int{1, 1}, Attr: []float64{1, 2}}, false},
		{"negative nodes", nn.Graph{N: -1}, true},
		{"short targets", nn.Graph{N: 2, Src: []int{0, 1}, Dst: []int{1}, Attr: []float64{1, 2}}, true},
		{"short attributes", nn.Graph{N: 2, Src: []int{0}, Dst: []int{1}}, true},
		{"source out of range", nn.Graph{N: 2, Src: []int{2}, Dst: []int{1}, Attr: []float64{1}}, true},
		{"negative target", nn.Graph{N: 2, Src: []int{0}, Dst: []int{-1}, Attr: []float64{1}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.g.Validate()
			if tt.wantErr != (err != nil) || (err != nil && !errors.Is(err, nn.ErrGraph)) {
				t.Errorf("Validate() = %v, want error %v wrapping ErrGraph", err, tt.wantErr)
			}
		})
	}
}

// BenchmarkGATConv runs a forward and backward pass on a complete directed
// graph of 200 nodes (39,800 edges) with 16 features and 4 heads.
func BenchmarkGATConv(b *testing.B) {
	const n, in, out, heads = 200, 16, 16, 4
	rng := rand.New(rand.NewPCG(12, 13))
	l := nn.NewGATConv("gat", in, out, heads, true, rng)
	g := &nn.Graph{N: n}
	for i := range n {
		for j := range n {
			if i != j {
				g.Src, g.Dst, g.Attr = append(g.Src, i), append(g.Dst, j), append(g.Attr, rng.Float64())
			}
		}
	}
	x := gatRandomDense(n, in, rng)
	dy := gatRandomDense(n, l.OutDim(), rng)
	for b.Loop() {
		l.Forward(g, x)
		l.Backward(dy)
	}
}
