// Package gat is the graph attention network that forecasts every entity
// of a Time x Entity matrix: each entity is a node whose features are its
// last window values, edges carry the Pearson correlation of the nodes'
// windows, and the network predicts every node's next value. The default
// architecture is the published one: three GAT convolutions with outputs
// 16, 16 and 1, each with a skip connection (a linear map where the sizes
// differ), ReLU between them.
package gat

import (
	"math/rand/v2"

	"github.com/mallard/mallard/mlops/nn"
	"gonum.org/v1/gonum/mat"
)

// layer is one GAT convolution with its skip connection:
// out = conv(g, x) + skip(x), where skip is the identity when the sizes agree.
type layer struct {
	conv *nn.GATConv
	skip *nn.Dense // nil for the identity
	relu *nn.ActivationLayer
}

// Net is one replica of the network. It keeps what backward needs from the
// last forward, so it serves one sample at a time; data-parallel workers
// each have their own.
type Net struct {
	layers []layer
	params []*nn.Param
}

// newNet builds the network for window input features, the given hidden
// sizes and heads; heads are averaged, so each layer outputs its size.
// Weights come from rng, so the same seed gives the same network.
func newNet(window int, hidden []int, heads int, rng *rand.Rand) *Net {
	n := &Net{}
	sizes := append(append([]int{window}, hidden...), 1)
	for i := 1; i < len(sizes); i++ {
		in, out := sizes[i-1], sizes[i]
		l := layer{conv: nn.NewGATConv(layerName(i, "conv"), in, out, heads, false, rng)}
		if in != out {
			l.skip = nn.NewDense(layerName(i, "skip"), in, out, false, rng)
		}
		if i < len(sizes)-1 {
			l.relu = nn.NewActivationLayer(nn.ReLU)
		}
		n.layers = append(n.layers, l)
		n.params = append(n.params, l.conv.Params()...)
		if l.skip != nil {
			n.params = append(n.params, l.skip.Params()...)
		}
	}
	return n
}

func layerName(i int, kind string) string { return "layer" + string(rune('0'+i)) + "." + kind }

// Params are the network's parameters in a fixed order.
func (n *Net) Params() []*nn.Param { return n.params }

// forward predicts one value per node (an N x 1 matrix) from x (N x window).
func (n *Net) forward(g *nn.Graph, x *mat.Dense) *mat.Dense {
	h := x
	for _, l := range n.layers {
		out := l.conv.Forward(g, h)
		if l.skip != nil {
			out.Add(out, l.skip.Forward(h))
		} else {
			out.Add(out, h)
		}
		if l.relu != nil {
			out = l.relu.Forward(out)
		}
		h = out
	}
	return h
}

// backward adds the gradients of the loss whose gradient with respect to
// the last forward's output is dy.
func (n *Net) backward(dy *mat.Dense) {
	d := dy
	for i := len(n.layers) - 1; i >= 0; i-- {
		l := n.layers[i]
		if l.relu != nil {
			d = l.relu.Backward(d)
		}
		dx := l.conv.Backward(d)
		if l.skip != nil {
			dx.Add(dx, l.skip.Backward(d))
		} else {
			dx.Add(dx, d)
		}
		d = dx
	}
}

// copyWeights makes n's weights equal to src's.
func (n *Net) copyWeights(src *Net) {
	for i, p := range n.params {
		p.W.Copy(src.params[i].W)
	}
}

// sameShapes reports whether n and o have parameters of the same shapes.
func sameShapes(n, o *Net) bool {
	if len(n.params) != len(o.params) {
		return false
	}
	for i, p := range n.params {
		r, c := p.W.Dims()
		or, oc := o.params[i].W.Dims()
		if r != or || c != oc {
			return false
		}
	}
	return true
}

// flatGrads appends every parameter's gradient to buf, in Params order.
func (n *Net) flatGrads(buf []float64) []float64 {
	for _, p := range n.params {
		buf = append(buf, p.Grad.RawMatrix().Data...)
	}
	return buf
}

// setGrads sets every parameter's gradient from buf, scaled by f.
func (n *Net) setGrads(buf []float64, f float64) {
	for _, p := range n.params {
		data := p.Grad.RawMatrix().Data
		for i := range data {
			data[i] = buf[i] * f
		}
		buf = buf[len(data):]
	}
}
