package nn_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/nn"
)

// gatPass is what a forward and backward pass of a layer gives: the
// output, the input gradient, the parameters' gradients and the attention.
type gatPass struct {
	y, dx, att []float64
	grads      [][]float64
}

// runGAT runs a fresh layer (the same weights for the same seed) forward
// on g, or on a when a is not nil, and backward with dy.
func runGAT(seed uint64, g *nn.Graph, a *nn.Adjacency, x, dy *mat.Dense) gatPass {
	l := nn.NewGATConv("gat", 3, 4, 2, false, rand.New(rand.NewPCG(seed, 1)))
	var y *mat.Dense
	if a != nil {
		y = l.ForwardOn(a, x)
	} else {
		y = l.Forward(g, x)
	}
	att := l.Attention()
	p := gatPass{y: y.RawMatrix().Data, dx: l.Backward(dy).RawMatrix().Data, att: att.RawMatrix().Data}
	for _, q := range l.Params() {
		p.grads = append(p.grads, q.Grad.RawMatrix().Data)
	}
	return p
}

func (p gatPass) equal(o gatPass) bool {
	return slices.Equal(p.y, o.y) && slices.Equal(p.dx, o.dx) && slices.Equal(p.att, o.att) &&
		slices.EqualFunc(p.grads, o.grads, slices.Equal)
}

// cloneGraph is a copy of g that shares no storage with it.
func cloneGraph(g *nn.Graph) *nn.Graph {
	return &nn.Graph{N: g.N, Src: slices.Clone(g.Src), Dst: slices.Clone(g.Dst), Attr: slices.Clone(g.Attr)}
}

// TestAdjacencySetAgain checks that an Adjacency set again to a graph
// whose edges changed in place gives layers the same results, to the
// bit, as a graph grouped anew: when only the attributes changed (the
// quick path), when an edge's source or target changed, when the graph
// has a self loop to drop, and when the node count changed. An invalid
// graph leaves the Adjacency empty and a forward on it panics.
func TestAdjacencySetAgain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 7
	// Every ordered pair, listed by target as series.Edges lists them,
	// then a shuffled copy: the quick path does not depend on the order.
	byTarget := &nn.Graph{N: n}
	for j := range n {
		for i := range n {
			if i != j {
				byTarget.Src, byTarget.Dst, byTarget.Attr = append(byTarget.Src, i), append(byTarget.Dst, j), append(byTarget.Attr, 2*rng.Float64()-1)
			}
		}
	}
	shuffled := cloneGraph(byTarget)
	rng.Shuffle(len(shuffled.Src), func(a, b int) {
		shuffled.Src[a], shuffled.Src[b] = shuffled.Src[b], shuffled.Src[a]
		shuffled.Dst[a], shuffled.Dst[b] = shuffled.Dst[b], shuffled.Dst[a]
		shuffled.Attr[a], shuffled.Attr[b] = shuffled.Attr[b], shuffled.Attr[a]
	})
	changes := []struct {
		name   string
		change func(g *nn.Graph) *nn.Graph
	}{
		{"attributes", func(g *nn.Graph) *nn.Graph {
			for k := range g.Attr {
				g.Attr[k] = 2*rng.Float64() - 1
			}
			return g
		}},
		{"source", func(g *nn.Graph) *nn.Graph {
			g.Src[3] = (g.Src[3] + 1) % n
			if g.Src[3] == g.Dst[3] {
				g.Src[3] = (g.Src[3] + 1) % n
			}
			return g
		}},
		{"target", func(g *nn.Graph) *nn.Graph {
			k := len(g.Src) - 1
			g.Dst[k] = (g.Dst[k] + 1) % n
			if g.Src[k] == g.Dst[k] {
				g.Dst[k] = (g.Dst[k] + 1) % n
			}
			return g
		}},
		{"self loop", func(g *nn.Graph) *nn.Graph { g.Dst[5] = g.Src[5]; return g }},
		{"nodes", func(g *nn.Graph) *nn.Graph { g.N++; return g }},
	}
	for _, base := range []*nn.Graph{byTarget, shuffled} {
		for _, c := range changes {
			g := cloneGraph(base)
			var a nn.Adjacency
			if err := a.Set(g); err != nil {
				t.Fatal(err)
			}
			x, dy := gatRandomDense(g.N, 3, rng), gatRandomDense(g.N, 4, rng)
			if !runGAT(9, g, &a, x, dy).equal(runGAT(9, cloneGraph(g), nil, x, dy)) {
				t.Fatalf("%s: a first Set differs from Forward", c.name)
			}
			g = c.change(g)
			if err := a.Set(g); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			x, dy = gatRandomDense(g.N, 3, rng), gatRandomDense(g.N, 4, rng)
			if !runGAT(9, g, &a, x, dy).equal(runGAT(9, cloneGraph(g), nil, x, dy)) {
				t.Errorf("%s changed in place: a second Set differs from a graph grouped anew", c.name)
			}
		}
	}

	var a nn.Adjacency
	if err := a.Set(cloneGraph(byTarget)); err != nil {
		t.Fatal(err)
	}
	bad := cloneGraph(byTarget)
	bad.Src[2] = n
	if err := a.Set(bad); !errors.Is(err, nn.ErrGraph) {
		t.Fatalf("Set on an edge to node %d of %d: %v, want ErrGraph", n, n, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("ForwardOn after a failed Set did not panic")
		}
	}()
	nn.NewGATConv("gat", 3, 4, 2, false, rng).ForwardOn(&a, gatRandomDense(n, 3, rng))
}
