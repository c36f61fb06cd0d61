// Package gat is the graph attention network that forecasts every entity
// of a Time x Entity matrix: each entity is a node whose features are its
// last window values, edges carry the Pearson correlation of the nodes'
// windows, and the network predicts every node's next value. The default
// architecture is the published one: three GAT convolutions with outputs
// 16, 16 and 1, each with a skip connection (a linear map where the sizes
// differ), ReLU between them.
//
// By default the network is anchored (Config.Target "change"): its input
// windows are taken relative to each node's last value and its output is
// added to that value, as NLinear does (Zeng et al., AAAI 2023), and a
// linear autoregressive highway over each node's last differences is
// added to the output, as LSTNet's highway (Lai et al., SIGIR 2018). The
// last layer starts at zero and the highway at the least-squares fit, so
// the untrained network is the ar_diff baseline (persistence without a
// highway) and training can only earn its departures from it.
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
	// highway, if not nil, is the linear autoregression added to the
	// output: a row per step the network forecasts without recursion
	// (Config.steps), each the lags' weights oldest first, then the
	// intercept. It is the last of params.
	highway *nn.Param
	lags    *mat.Dense // the highway's input of the last forward
	// adj is the last forward's graph as its convolutions attend over it,
	// grouped once for all of them.
	adj nn.Adjacency
	// step is the highway row of the first output of the next forward
	// (and its backward): a direct network's step, else 0.
	step int
}

// newNet builds the network of cfg: window input features (and a direct
// network's step embedding, cfg.stepInputs), the hidden sizes and heads
// (averaged, so each layer outputs its size), one output per step the
// strategy predicts at once (cfg.outputs), and a highway of cfg.Highway
// lags for each step. Weights come from rng, so the same seed gives the
// same network; an anchored network's last layer and highway
// start at zero.
func newNet(cfg Config, rng *rand.Rand) *Net {
	n := newLayers(cfg.Window+cfg.stepInputs(), cfg.Hidden, cfg.Heads, cfg.outputs(), cfg.anchored(), rng)
	if cfg.anchored() {
		last := n.layers[len(n.layers)-1]
		last.conv.W.W.Zero() // x W = 0: the attention still varies, the output does not
		last.conv.Bias.W.Zero()
		if last.skip != nil {
			last.skip.Weight.W.Zero()
		}
	}
	if cfg.Highway > 0 {
		n.highway = nn.NewParam("highway", cfg.steps(), cfg.Highway+1)
		n.params = append(n.params, n.highway)
	}
	return n
}

// newLayers builds the convolutions for window input features, the given
// hidden sizes and heads, and outputs outputs per node. The last layer's
// skip connection is a linear map when the sizes differ or denseLast is
// set, so that it can start at zero.
func newLayers(window int, hidden []int, heads, outputs int, denseLast bool, rng *rand.Rand) *Net {
	n := &Net{}
	sizes := append(append([]int{window}, hidden...), outputs)
	for i := 1; i < len(sizes); i++ {
		in, out := sizes[i-1], sizes[i]
		l := layer{conv: nn.NewGATConv(layerName(i, "conv"), in, out, heads, false, rng)}
		if in != out || denseLast && i == len(sizes)-1 {
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

// forward predicts one value per node and output (an N x outputs
// matrix) from x (N x inputs) and, for the highway, lags (N x Highway;
// nil without a highway), output c with the highway's row c + step.
func (n *Net) forward(g *nn.Graph, x, lags *mat.Dense) *mat.Dense {
	out := n.convs(g, x)
	if n.highway != nil {
		n.lags = lags
		for c := range out.RawMatrix().Cols {
			w := n.highway.W.RawRowView(c + n.step)
			p := len(w) - 1
			for i := range out.RawMatrix().Rows {
				v := w[p]
				for k, l := range lags.RawRowView(i) {
					v += w[k] * l
				}
				out.Set(i, c, out.At(i, c)+v)
			}
		}
	}
	return out
}

// convs runs the convolutions. It panics if g is invalid.
func (n *Net) convs(g *nn.Graph, x *mat.Dense) *mat.Dense {
	if err := n.adj.Set(g); err != nil {
		panic("gat: " + err.Error())
	}
	h := x
	for _, l := range n.layers {
		out := l.conv.ForwardOn(&n.adj, h)
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
	if n.highway != nil {
		for c := range dy.RawMatrix().Cols {
			g := n.highway.Grad.RawRowView(c + n.step)
			p := len(g) - 1
			for i := range dy.RawMatrix().Rows {
				d := dy.At(i, c)
				g[p] += d
				for k, l := range n.lags.RawRowView(i) {
					g[k] += d * l
				}
			}
		}
	}
	d := dy
	for i := len(n.layers) - 1; i >= 0; i-- {
		l := n.layers[i]
		if l.relu != nil {
			d = l.relu.Backward(d)
		}
		dx := l.conv.BackwardOn(d)
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
