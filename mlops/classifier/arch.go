package classifier

import (
	"fmt"
	"math/rand/v2"
)

// Layer kinds of a LayerSpec.
const (
	KindDense   = "dense"
	KindConv    = "conv3x3"
	KindReLU    = "relu"
	KindMaxPool = "maxpool2"
	KindDropout = "dropout"
)

// LayerSpec is one layer of an architecture: Units is a dense layer's
// outputs or a convolution's filters, P a dropout's probability.
type LayerSpec struct {
	Kind  string  `json:"kind"`
	Units int     `json:"units,omitempty"`
	P     float64 `json:"p,omitempty"`
}

// Arch is a network, first layer first; its last layer gives the outputs
// (one per class, or one for a regressor).
type Arch []LayerSpec

// Linear is multinomial logistic regression (softmax over outputs) or,
// with one output and a regressor's loss, linear regression.
func Linear(outputs int) Arch { return Arch{{Kind: KindDense, Units: outputs}} }

// MLP is dense layers of the given widths, each followed by a ReLU and,
// when p > 0, dropout of p, then a dense layer of outputs.
func MLP(hidden []int, p float64, outputs int) Arch {
	var a Arch
	for _, h := range hidden {
		a = append(a, LayerSpec{Kind: KindDense, Units: h}, LayerSpec{Kind: KindReLU})
		if p > 0 {
			a = append(a, LayerSpec{Kind: KindDropout, P: p})
		}
	}
	return append(a, LayerSpec{Kind: KindDense, Units: outputs})
}

// DefaultCNN is the default network for images: two stages of a 3 x 3
// convolution (16, then 32 filters), ReLU and 2 x 2 max pooling, dropout
// 0.25, a dense layer of 128 with ReLU and dropout 0.5, and a dense layer
// of outputs. It is narrower than the usual 32/64 Keras MNIST network so
// that an epoch of MNIST takes about a quarter of the arithmetic on the
// few cores Mallard is meant to share.
func DefaultCNN(outputs int) Arch {
	return Arch{
		{Kind: KindConv, Units: 16}, {Kind: KindReLU}, {Kind: KindMaxPool},
		{Kind: KindConv, Units: 32}, {Kind: KindReLU}, {Kind: KindMaxPool},
		{Kind: KindDropout, P: 0.25},
		{Kind: KindDense, Units: 128}, {Kind: KindReLU}, {Kind: KindDropout, P: 0.5},
		{Kind: KindDense, Units: outputs},
	}
}

// net is one worker's instance of an Arch: its layers with their buffers,
// and where each layer's weights start in the flat weight vector.
type net struct {
	layers []layer
	offs   []int // layer i's weights are w[offs[i]:offs[i+1]]
	in     shape
}

// buildNet instantiates arch for examples of shape in.
func buildNet(arch Arch, in shape) (*net, error) {
	n := &net{in: in, offs: []int{0}}
	s := in
	for i, spec := range arch {
		l, err := newLayer(spec, s, i, len(n.layers) == 0)
		if err != nil {
			return nil, fmt.Errorf("layer %d: %w", i, err)
		}
		n.layers = append(n.layers, l)
		n.offs = append(n.offs, n.offs[i]+l.params())
		s = l.out()
	}
	if len(arch) == 0 {
		return nil, fmt.Errorf("architecture has no layers")
	}
	return n, nil
}

// newLayer builds one layer for input shape s; first is set for the
// network's first layer, which computes no input gradient.
func newLayer(spec LayerSpec, s shape, index int, first bool) (layer, error) {
	switch spec.Kind {
	case KindDense:
		if spec.Units < 1 {
			return nil, fmt.Errorf("dense units %d: want at least 1", spec.Units)
		}
		return newDense(s, spec.Units, first), nil
	case KindConv:
		if spec.Units < 1 || s.H < 1 || s.W < 1 {
			return nil, fmt.Errorf("conv3x3 of %d filters on a %dx%dx%d input: want at least 1 filter and an image input", spec.Units, s.H, s.W, s.C)
		}
		return newConv(s, spec.Units, first), nil
	case KindReLU:
		return &relu{s: s}, nil
	case KindMaxPool:
		if s.H < 2 || s.W < 2 {
			return nil, fmt.Errorf("maxpool2 on a %dx%d input: want at least 2x2", s.H, s.W)
		}
		return newMaxPool(s), nil
	case KindDropout:
		if spec.P < 0 || spec.P >= 1 {
			return nil, fmt.Errorf("dropout p %g: want 0 <= p < 1", spec.P)
		}
		return &dropout{s: s, p: spec.P, index: index}, nil
	}
	return nil, fmt.Errorf("layer kind %q: want one of %s, %s, %s, %s, %s", spec.Kind, KindDense, KindConv, KindReLU, KindMaxPool, KindDropout)
}

// params is the number of weights of the network.
func (n *net) params() int { return n.offs[len(n.offs)-1] }

// outputs is the number of values per example of the last layer.
func (n *net) outputs() int { return n.layers[len(n.layers)-1].out().size() }

// init draws every layer's initial weights from rng, layer by layer.
func (n *net) init(w []float64, rng *rand.Rand) {
	for i, l := range n.layers {
		l.init(w[n.offs[i]:n.offs[i+1]], rng)
	}
}

// forward computes the outputs of b.n examples x.
func (n *net) forward(w, x []float64, b *batch) []float64 {
	for i, l := range n.layers {
		x = l.forward(w[n.offs[i]:n.offs[i+1]], x, b)
	}
	return x
}

// backward adds the gradient with respect to the weights into g, given
// dy, the gradient with respect to the last forward's outputs.
func (n *net) backward(w, g, dy []float64, b *batch) {
	for i := len(n.layers) - 1; i >= 0 && dy != nil; i-- {
		dy = n.layers[i].backward(w[n.offs[i]:n.offs[i+1]], g[n.offs[i]:n.offs[i+1]], dy, b)
	}
}
