package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/nn"
)

// awayFromZero returns an r x c matrix of values uniform in ±[1e-3, 3), so
// that no central difference straddles the kink of ReLU, LeakyReLU or ELU.
func awayFromZero(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			v := 1e-3 + (3-1e-3)*rng.Float64()
			if rng.IntN(2) == 0 {
				v = -v
			}
			m.Set(i, j, v)
		}
	}
	return m
}

func TestActivationGradient(t *testing.T) {
	tests := []struct {
		name  string
		layer *nn.ActivationLayer
	}{
		{"identity", nn.NewActivationLayer(nn.Identity)},
		{"relu", nn.NewActivationLayer(nn.ReLU)},
		{"elu", nn.NewActivationLayer(nn.ELU)},
		{"leaky_relu default", nn.NewActivationLayer(nn.LeakyReLU)},
		{"leaky_relu 0.2", nn.NewLeakyReLU(0.2)},
		{"sigmoid", nn.NewActivationLayer(nn.Sigmoid)},
		{"tanh", nn.NewActivationLayer(nn.Tanh)},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			const r, c = 6, 5
			x := awayFromZero(rng, r, c)
			dy := randMatrix(rng, r, c)
			tt.layer.Forward(x)
			dx := tt.layer.Backward(dy)
			loss := func(v []float64) float64 {
				return dot(dy, tt.layer.Forward(mat.NewDense(r, c, v)))
			}
			if e := gradRelErr(flat(dx), numericGrad(loss, flat(x))); e > gradTol {
				t.Errorf("dL/dx relative error %g > %g", e, gradTol)
			}
		})
	}
}

func TestActivationApplyByHand(t *testing.T) {
	tests := []struct {
		a         nn.Activation
		x         float64
		want      float64
		wantDeriv float64
	}{
		{nn.Identity, -2.5, -2.5, 1},
		{nn.ReLU, -1, 0, 0},
		{nn.ReLU, 0, 0, 0},
		{nn.ReLU, 2, 2, 1},
		{nn.ELU, -1, math.Exp(-1) - 1, math.Exp(-1)},
		{nn.ELU, 0, 0, 1},
		{nn.ELU, 3, 3, 1},
		{nn.LeakyReLU, -2, -0.02, 0.01},
		{nn.LeakyReLU, 0, 0, 0.01},
		{nn.LeakyReLU, 2, 2, 1},
		{nn.Sigmoid, 0, 0.5, 0.25},
		{nn.Sigmoid, -800, 0, 0},
		{nn.Sigmoid, 800, 1, 0},
		{nn.Tanh, 0, 0, 1},
		{nn.Tanh, 1, math.Tanh(1), 1 - math.Tanh(1)*math.Tanh(1)},
	}
	for _, tt := range tests {
		if got := tt.a.Apply(tt.x); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("%v.Apply(%g) = %g, want %g", tt.a, tt.x, got, tt.want)
		}
		if got := tt.a.Derivative(tt.x); math.Abs(got-tt.wantDeriv) > 1e-15 {
			t.Errorf("%v.Derivative(%g) = %g, want %g", tt.a, tt.x, got, tt.wantDeriv)
		}
	}
}

func TestActivationDerivativeMatchesFD(t *testing.T) {
	settings := &fd.Settings{Formula: fd.Central, Step: 1e-6}
	for a := nn.Identity; a <= nn.Tanh; a++ {
		for _, x := range []float64{-2.7, -0.4, 0.3, 1.9} {
			want := fd.Derivative(a.Apply, x, settings)
			got := a.Derivative(x)
			if e := math.Abs(got-want) / math.Max(1e-8, math.Abs(got)+math.Abs(want)); e > gradTol {
				t.Errorf("%v.Derivative(%g) = %g, finite difference %g", a, x, got, want)
			}
		}
	}
}

func TestActivationLayerForward(t *testing.T) {
	x := mat.NewDense(1, 3, []float64{-10, 0.5, 3})
	tests := []struct {
		name  string
		layer *nn.ActivationLayer
		want  []float64
	}{
		{"relu", nn.NewActivationLayer(nn.ReLU), []float64{0, 0.5, 3}},
		{"leaky default", nn.NewActivationLayer(nn.LeakyReLU), []float64{-0.1, 0.5, 3}},
		{"leaky 0.2", nn.NewLeakyReLU(0.2), []float64{-2, 0.5, 3}},
		{"zero-value slope", &nn.ActivationLayer{Kind: nn.LeakyReLU}, []float64{-0.1, 0.5, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := flat(tt.layer.Forward(x))
			for j := range got {
				if math.Abs(got[j]-tt.want[j]) > 1e-15 {
					t.Fatalf("Forward = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestParseActivation(t *testing.T) {
	tests := []struct {
		in     string
		want   nn.Activation
		wantOK bool
	}{
		{"relu", nn.ReLU, true},
		{" ReLU ", nn.ReLU, true},
		{"elu", nn.ELU, true},
		{"leaky_relu", nn.LeakyReLU, true},
		{"LeakyReLU", nn.LeakyReLU, true},
		{"leaky-relu", nn.LeakyReLU, true},
		{"sigmoid", nn.Sigmoid, true},
		{"tanh", nn.Tanh, true},
		{"identity", nn.Identity, true},
		{"linear", nn.Identity, true},
		{"gelu", nn.Identity, false},
		{"", nn.Identity, false},
	}
	for _, tt := range tests {
		got, ok := nn.ParseActivation(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseActivation(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
	for a := nn.Identity; a <= nn.Tanh; a++ {
		if got, ok := nn.ParseActivation(a.String()); !ok || got != a {
			t.Errorf("ParseActivation(%q) = %v, %v; want %v, true", a.String(), got, ok, a)
		}
	}
}
