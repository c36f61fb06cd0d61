package nn

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Activation names an elementwise non-linearity. The zero value is
// Identity.
type Activation int

// The supported activations. ELU uses alpha = 1; LeakyReLU uses
// DefaultLeakySlope unless an ActivationLayer sets another slope.
const (
	Identity Activation = iota
	ReLU
	ELU
	LeakyReLU
	Sigmoid
	Tanh
)

// DefaultLeakySlope is the slope LeakyReLU applies to negative inputs when
// none is given, as in PyTorch.
const DefaultLeakySlope = 0.01

// String returns a's canonical lower-case name, such as "leaky_relu".
func (a Activation) String() string {
	switch a {
	case Identity:
		return "identity"
	case ReLU:
		return "relu"
	case ELU:
		return "elu"
	case LeakyReLU:
		return "leaky_relu"
	case Sigmoid:
		return "sigmoid"
	case Tanh:
		return "tanh"
	}
	return fmt.Sprintf("Activation(%d)", int(a))
}

// ParseActivation returns the activation named s, ignoring case and
// surrounding space. It accepts the canonical names ("identity", "relu",
// "elu", "leaky_relu", "sigmoid", "tanh") and the aliases "linear",
// "leakyrelu" and "leaky-relu". The boolean is false for any other name.
func ParseActivation(s string) (Activation, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "linear":
		return Identity, true
	case "leakyrelu", "leaky-relu":
		return LeakyReLU, true
	}
	for a := Identity; a <= Tanh; a++ {
		if s == a.String() {
			return a, true
		}
	}
	return Identity, false
}

// Apply returns a(x), with DefaultLeakySlope for LeakyReLU. It panics for
// an Activation outside the declared constants.
func (a Activation) Apply(x float64) float64 { return apply(a, DefaultLeakySlope, x) }

// Derivative returns da/dx evaluated at the input x, with DefaultLeakySlope
// for LeakyReLU. At the kink x = 0 it follows PyTorch: 0 for ReLU, the
// slope for LeakyReLU and 1 for ELU. It panics for an Activation outside
// the declared constants.
func (a Activation) Derivative(x float64) float64 {
	return derivative(a, DefaultLeakySlope, x)
}

// apply evaluates a at x with negative slope slope for LeakyReLU.
func apply(a Activation, slope, x float64) float64 {
	switch a {
	case Identity:
		return x
	case ReLU:
		return max(x, 0)
	case ELU:
		if x > 0 {
			return x
		}
		return math.Expm1(x)
	case LeakyReLU:
		if x > 0 {
			return x
		}
		return slope * x
	case Sigmoid:
		return sigmoid(x)
	case Tanh:
		return math.Tanh(x)
	}
	panic(fmt.Sprintf("nn: unknown activation %v", a))
}

// derivative evaluates da/dx at x with negative slope slope for LeakyReLU.
func derivative(a Activation, slope, x float64) float64 {
	switch a {
	case Identity:
		return 1
	case ReLU:
		if x > 0 {
			return 1
		}
		return 0
	case ELU:
		if x > 0 {
			return 1
		}
		return math.Exp(x)
	case LeakyReLU:
		if x > 0 {
			return 1
		}
		return slope
	case Sigmoid:
		s := sigmoid(x)
		return s * (1 - s)
	case Tanh:
		t := math.Tanh(x)
		return 1 - t*t
	}
	panic(fmt.Sprintf("nn: unknown activation %v", a))
}

// sigmoid returns 1/(1+e^-x) without overflowing e^-x for large negative x.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// ActivationLayer applies Kind elementwise. Slope is LeakyReLU's slope for
// negative inputs; zero means DefaultLeakySlope (a zero slope is ReLU).
// Forward keeps a copy of its input for Backward, so a layer serves one
// forward/backward pair at a time and is not safe for concurrent use.
type ActivationLayer struct {
	Kind  Activation
	Slope float64

	x *mat.Dense // input of the last Forward, owned by the layer
}

// NewActivationLayer returns a layer applying a, with DefaultLeakySlope if
// a is LeakyReLU.
func NewActivationLayer(a Activation) *ActivationLayer {
	return &ActivationLayer{Kind: a}
}

// NewLeakyReLU returns a LeakyReLU layer with the given negative slope.
func NewLeakyReLU(slope float64) *ActivationLayer {
	return &ActivationLayer{Kind: LeakyReLU, Slope: slope}
}

// slope returns the LeakyReLU slope in effect.
func (l *ActivationLayer) slope() float64 {
	if l.Slope == 0 {
		return DefaultLeakySlope
	}
	return l.Slope
}

// Forward returns the activation of every element of x.
func (l *ActivationLayer) Forward(x *mat.Dense) *mat.Dense {
	l.x = copiedDense(l.x, x)
	s := l.slope()
	r, c := x.Dims()
	y := mat.NewDense(r, c, nil)
	y.Apply(func(_, _ int, v float64) float64 { return apply(l.Kind, s, v) }, x)
	return y
}

// Backward takes dy = dL/dy for the output of the last Forward and returns
// dL/dx = dy ⊙ a'(x), with a' evaluated at the kept input. The layer has no
// parameters. It panics if Forward has not been called or if dy's shape
// differs from the input's.
func (l *ActivationLayer) Backward(dy *mat.Dense) *mat.Dense {
	if l.x == nil {
		panic(fmt.Sprintf("nn: %v layer: Backward before Forward", l.Kind))
	}
	s := l.slope()
	r, c := l.x.Dims()
	dx := mat.NewDense(r, c, nil)
	dx.Apply(func(i, j int, g float64) float64 { return g * derivative(l.Kind, s, l.x.At(i, j)) }, dy)
	return dx
}

// Params returns nil: an activation has no trainable parameters.
func (l *ActivationLayer) Params() []*Param { return nil }
