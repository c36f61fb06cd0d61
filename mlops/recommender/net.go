package recommender

import (
	"fmt"

	"gonum.org/v1/gonum/floats"

	"github.com/mallard/mallard/mlops/nn"
)

// net is the autoencoder's arithmetic over weights it does not own, kept
// in three flat slices:
//
//   - enc, the encoder table: item j's row enc[j·h₁ : (j+1)·h₁] is the
//     weights from input j to the first hidden layer (width h₁);
//   - dense: the first hidden layer's bias, then for each further hidden
//     layer its weights (in x out, row-major) and its bias, then the
//     output layer's shared row: h_L weights and a bias;
//   - dec, the decoder table: item j's row of h_L+1 values is its offset
//     from the shared row: output j's weights from the last hidden layer
//     (width h_L) are the shared weights plus the first h_L values, its
//     bias the shared bias plus the last.
//
// The output layer is split into a shared row and item offsets so that the
// weight penalty holds each item to the shared row as far as its ratings
// do not pull it away: an item rated once predicts about what the shared
// row gives every item for the user (a user's mean, as it were), as a
// damped mean does, not its one rating; an item never rated, exactly that.
//
// The tables are items x width because a user's ratings touch only their
// items' rows, forward and backward, so the cost of a user is proportional
// to the ratings it has, not to the number of items.
//
// A net of the ranking objective reads its inputs as interactions (see
// encode); its outputs are logits, and out is not applied.
type net struct {
	items    int
	sizes    []int
	act, out nn.Activation
	enc      []float64
	dense    []float64
	dec      []float64
	inner    []layer
	ranking  bool
	// head is where the variational head starts in dense (see vae.go), 0
	// for a network without one.
	head int
	// cut is Config.Relevant in the input scale: for the ranking objective
	// an input at or above it is an interaction. Whoever knows the scale
	// sets it (Model.net, the training run).
	cut float64
}

// layer locates a hidden layer after the first in net.dense: in x out
// weights at w, out biases at b.
type layer struct {
	in, out int
	w, b    int
}

// denseLayout returns the inner layers of hidden sizes, where the
// variational head starts (0 unless vae), and the length of the dense
// part, whose last h_L+1 values are the output layer's shared row. The
// head, h_L x h_L weights and h_L biases, comes just before that row.
func denseLayout(sizes []int, vae bool) (inner []layer, head, n int) {
	n = sizes[0]
	for k := 1; k < len(sizes); k++ {
		l := layer{in: sizes[k-1], out: sizes[k], w: n}
		l.b = l.w + l.in*l.out
		n = l.b + l.out
		inner = append(inner, l)
	}
	hL := sizes[len(sizes)-1]
	if vae {
		head, n = n, n+hL*hL+hL
	}
	return inner, head, n + hL + 1
}

// shapes returns the lengths of the encoder table, the dense part and the
// decoder table of cfg's network over items.
func shapes(cfg Config, items int) (enc, dense, dec int) {
	_, _, dense = denseLayout(cfg.Hidden, cfg.vae())
	return items * cfg.Hidden[0], dense, items * (cfg.Hidden[len(cfg.Hidden)-1] + 1)
}

// newNet returns the network of a valid cfg over the given weights, which
// must have the lengths shapes gives.
func newNet(cfg Config, items int, enc, dense, dec []float64) *net {
	ne, nd, nc := shapes(cfg, items)
	if len(enc) != ne || len(dense) != nd || len(dec) != nc {
		panic(fmt.Sprintf("recommender: weights of %d, %d, %d values, want %d, %d, %d", len(enc), len(dense), len(dec), ne, nd, nc))
	}
	act, out := cfg.activations()
	inner, head, _ := denseLayout(cfg.Hidden, cfg.vae())
	return &net{items: items, sizes: cfg.Hidden, act: act, out: out, enc: enc, dense: dense, dec: dec, inner: inner,
		ranking: cfg.ranking(), head: head}
}

// encRow and decRow are item j's rows of the tables.
func (n *net) encRow(j int32) []float64 {
	h := n.sizes[0]
	return n.enc[int(j)*h : int(j)*h+h]
}

func (n *net) decRow(j int32) []float64 {
	h := n.sizes[len(n.sizes)-1] + 1
	return n.dec[int(j)*h : int(j)*h+h]
}

// trace holds one user's pass through the network: the scaled ratings,
// each hidden layer's pre-activation z and activation a, a gradient per
// hidden layer, and dL/do at each rated item's output. For the ranking
// objective in holds the inputs the network reads (see encode) and pos
// the user's interactions.
type trace struct {
	x, dy, in []float64
	z, a, d   [][]float64
	pos       []int32
	vae       *vaeTrace // nil but for a variational network in training
}

func newTrace(sizes []int) *trace {
	t := &trace{}
	for _, h := range sizes {
		t.z, t.a, t.d = append(t.z, make([]float64, h)), append(t.a, make([]float64, h)), append(t.d, make([]float64, h))
	}
	return t
}

// load sets t.x to a row's ratings mapped to [0, 1] by s.
func (t *trace) load(vals []float32, s scale) {
	t.x = t.x[:0]
	for _, v := range vals {
		t.x = append(t.x, s.in(float64(v)))
	}
	t.dy = resized(t.dy, len(vals))
}

// resized returns buf with length n, reallocated only when its capacity
// is short. Its contents are unspecified.
func resized(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// encode runs a row (items with inputs x, ratings in the input scale)
// through the hidden layers and returns the last one's activation, which t
// keeps with the rest of the pass. For the ranking objective the inputs
// are first made interactions (see interactions). An input of zero adds
// nothing, so its table row is not read.
func (n *net) encode(items []int32, x []float64, t *trace) []float64 {
	if n.ranking {
		t.in = resized(t.in, len(x))
		n.interactions(x, t.in)
		x = t.in
	}
	return n.encodeInputs(items, x, t)
}

// encodeInputs is encode of inputs the network reads as they are.
func (n *net) encodeInputs(items []int32, x []float64, t *trace) []float64 {
	z := t.z[0]
	copy(z, n.dense[:n.sizes[0]])
	for i, j := range items {
		if x[i] != 0 {
			floats.AddScaled(z, x[i], n.encRow(j))
		}
	}
	return n.forward(t)
}

// forward runs the hidden layers from the first one's pre-activation,
// which t.z[0] holds, and returns the last one's activation, which t keeps
// with the rest of the pass.
func (n *net) forward(t *trace) []float64 {
	activate(n.act, t.a[0], t.z[0])
	for k, l := range n.inner {
		z, prev := t.z[k+1], t.a[k]
		copy(z, n.dense[l.b:l.b+l.out])
		for i, v := range prev {
			if v != 0 {
				floats.AddScaled(z, v, n.dense[l.w+i*l.out:l.w+(i+1)*l.out])
			}
		}
		activate(n.act, t.a[k+1], z)
	}
	return t.a[len(t.a)-1]
}

// activate sets dst to a applied to each of z.
func activate(a nn.Activation, dst, z []float64) {
	for i, v := range z {
		dst[i] = a.Apply(v)
	}
}

// shared is the output layer's shared row in the dense part.
func (n *net) shared() []float64 {
	return n.dense[len(n.dense)-n.sizes[len(n.sizes)-1]-1:]
}

// base returns the shared row's part of every output's pre-activation for
// the last hidden activation a.
func (n *net) base(a []float64) float64 {
	s := n.shared()
	return floats.Dot(s[:len(a)], a) + s[len(a)]
}

// output returns output j's pre-activation for the last hidden activation
// a, whose base is base.
func (n *net) output(j int32, a []float64, base float64) float64 {
	row := n.decRow(j)
	h := len(row) - 1
	return floats.Dot(row[:h], a) + row[h] + base
}

// learn adds to g the gradient of weight·Σ(ŷ_j − x_j)² over the row's
// items j, ŷ_j the output at j, and returns the unweighted sum of squares.
func (n *net) learn(items []int32, vals []float32, s scale, weight float64, t *trace, g *grads) float64 {
	t.load(vals, s)
	a := n.encode(items, t.x, t)
	base := n.base(a)
	var sse float64
	for i, j := range items {
		o := n.output(j, a, base)
		e := n.out.Apply(o) - t.x[i]
		sse += e * e
		t.dy[i] = 2 * weight * e * n.out.Derivative(o)
	}
	n.backward(items, t, g)
	return sse
}

// backward adds to g the gradient of the loss whose derivatives at the
// row's outputs are t.dy, for the pass that t holds. The row's items get
// gradient rows in g even where their gradient is zero: they are the rows
// the batch uses, which the weight penalty covers.
func (n *net) backward(items []int32, t *trace, g *grads) {
	clear(t.d[len(n.sizes)-1])
	n.backwardFrom(items, t, g, 0)
}

// backwardFrom is backward where dL/da of the last hidden layer starts
// at what t.d holds there, and other the sum of dL/do over the outputs
// not in items: so outputs whose gradient the caller has taken care of
// reach the hidden layers and the shared row too.
func (n *net) backwardFrom(items []int32, t *trace, g *grads, other float64) {
	last := len(n.sizes) - 1
	a, da := t.a[last], t.d[last]
	h := len(a)
	total := other // Σ dL/do over the outputs, the shared row's share
	for i, j := range items {
		_, gd := g.row(j)
		if d := t.dy[i]; d != 0 {
			floats.AddScaled(gd[:h], d, a)
			gd[h] += d
			floats.AddScaled(da, d, n.decRow(j)[:h])
			total += d
		}
	}
	n.backwardDense(t, g, total)
	for i, j := range items {
		if x := t.x[i]; x != 0 {
			ge, _ := g.row(j)
			floats.AddScaled(ge, x, t.d[0])
		}
	}
}

// backwardDense adds to g.dense the gradient of the dense part, where
// t.d holds at the last hidden layer dL/da from the item outputs and total
// is Σ dL/do over every output, and leaves dL/dz of the first hidden
// layer in t.d[0], from which the encoder rows' gradients follow.
func (n *net) backwardDense(t *trace, g *grads, total float64) {
	last := len(n.sizes) - 1
	a, da := t.a[last], t.d[last]
	h := len(a)
	gs := g.dense[len(g.dense)-h-1:]
	floats.AddScaled(gs[:h], total, a)
	gs[h] += total
	floats.AddScaled(da, total, n.shared()[:h])
	if t.vae != nil {
		n.headBackward(t, g)
	}
	for k := last; ; k-- {
		dz := t.d[k] // dL/da becomes dL/dz in place
		for i, z := range t.z[k] {
			dz[i] *= n.act.Derivative(z)
		}
		if k == 0 {
			break
		}
		l, prev, dprev := n.inner[k-1], t.a[k-1], t.d[k-1]
		for i, v := range prev {
			w := n.dense[l.w+i*l.out : l.w+(i+1)*l.out]
			if v != 0 {
				floats.AddScaled(g.dense[l.w+i*l.out:l.w+(i+1)*l.out], v, dz)
			}
			dprev[i] = floats.Dot(w, dz)
		}
		floats.Add(g.dense[l.b:l.b+l.out], dz)
	}
	floats.Add(g.dense[:n.sizes[0]], t.d[0])
}

// addPenalty adds l2·w to the dense gradient g for every inner layer
// weight w; the biases and the shared output row are not penalised.
func (n *net) addPenalty(g []float64, l2 float64) {
	if l2 == 0 {
		return
	}
	for _, l := range n.inner {
		floats.AddScaled(g[l.w:l.b], l2, n.dense[l.w:l.b])
	}
	if n.head != 0 {
		h := n.sizes[len(n.sizes)-1]
		floats.AddScaled(g[n.head:n.head+h*h], l2, n.dense[n.head:n.head+h*h])
	}
}
