package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/nn"
)

var (
	_ nn.Optimizer = (*nn.SGD)(nil)
	_ nn.Optimizer = (*nn.Adam)(nil)
)

// scalarParam returns a 1 x 1 parameter holding w.
func scalarParam(w float64) *nn.Param {
	p := nn.NewParam("w", 1, 1)
	p.W.Set(0, 0, w)
	return p
}

// stepScalar sets p's gradient to g and takes one optimizer step, returning
// the new value.
func stepScalar(opt nn.Optimizer, p *nn.Param, g float64) float64 {
	p.Grad.Set(0, 0, g)
	opt.Step([]*nn.Param{p})
	return p.W.At(0, 0)
}

func TestSGDByHand(t *testing.T) {
	tests := []struct {
		name         string
		lr, momentum float64
		grads        []float64
		want         []float64 // w after each step, from w = 1
	}{
		// v = g: w = 1 - 0.1·0.5
		{"plain", 0.1, 0, []float64{0.5, 0.5}, []float64{0.95, 0.90}},
		// v1 = 0.5, w = 0.95; v2 = 0.9·0.5 + 0.5 = 0.95, w = 0.95 - 0.095
		{"momentum", 0.1, 0.9, []float64{0.5, 0.5}, []float64{0.95, 0.855}},
		// v1 = 2, w = 0.8; v2 = 0.5·2 - 1 = 0, w stays 0.8
		{"momentum cancels", 0.1, 0.5, []float64{2, -1}, []float64{0.8, 0.8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := nn.NewSGD(tt.lr, tt.momentum)
			p := scalarParam(1)
			for i, g := range tt.grads {
				if got := stepScalar(opt, p, g); math.Abs(got-tt.want[i]) > 1e-15 {
					t.Errorf("step %d: w = %.17g, want %g", i+1, got, tt.want[i])
				}
			}
		})
	}
}

func TestSGDKeepsVelocityPerParam(t *testing.T) {
	opt := nn.NewSGD(1, 0.9)
	a, b := scalarParam(0), scalarParam(0)
	a.Grad.Set(0, 0, 1)
	opt.Step([]*nn.Param{a, b}) // b's gradient is zero: its velocity stays zero
	b.Grad.Set(0, 0, 1)
	opt.Step([]*nn.Param{a, b})
	if got, want := a.W.At(0, 0), -1-1.9; math.Abs(got-want) > 1e-15 {
		t.Errorf("a = %g, want %g", got, want)
	}
	if got, want := b.W.At(0, 0), -1.0; got != want {
		t.Errorf("b = %g, want %g", got, want)
	}
}

func TestAdamFirstStepIsLRSign(t *testing.T) {
	const lr = 0.01
	g := []float64{3, -0.2, 1e-3, -50, 0}
	p := nn.NewParam("w", 1, len(g))
	setFlat(p.Grad, g)
	nn.NewAdam(lr).Step([]*nn.Param{p})
	for j, gj := range g {
		// Bias correction makes m̂ = g and √v̂ = |g|, so the step is
		// lr·g/(|g|+eps): lr·sign(g) up to eps/|g| ≤ 1e-5 here.
		want := -lr * math.Copysign(1, gj)
		if gj == 0 {
			want = 0
		}
		if got := p.W.At(0, j); math.Abs(got-want) > 1e-5*lr {
			t.Errorf("w[%d] = %g after g = %g, want %g", j, got, gj, want)
		}
	}
}

func TestAdamTwoStepsByHand(t *testing.T) {
	opt := nn.NewAdam(0.1)
	p := scalarParam(1)
	// Step 1: m = 0.05, v = 0.00025, m̂ = 0.5, √v̂ = 0.5, w = 1 - 0.1·0.5/(0.5+1e-8).
	// Step 2: m = 0.045 - 0.1 = -0.055, v = 0.00024975 + 0.001 = 0.00124975,
	// w = 0.9 - (0.1/0.19)·m / (√v/√(1-0.999²) + 1e-8).
	want := []float64{1 - 0.05/(0.5+1e-8), 0.9366103542405654}
	for i, g := range []float64{0.5, -1} {
		if got := stepScalar(opt, p, g); math.Abs(got-want[i]) > 1e-12 {
			t.Errorf("step %d: w = %.17g, want %.17g", i+1, got, want[i])
		}
	}
}

func TestClipGradNorm(t *testing.T) {
	tests := []struct {
		name     string
		maxNorm  float64
		g1, g2   float64 // gradients of two 1 x 1 params
		wantNorm float64
		want     [2]float64
	}{
		{"below max", 10, 3, 4, 5, [2]float64{3, 4}},
		{"above max", 1, 3, 4, 5, [2]float64{3 / (5 + 1e-6), 4 / (5 + 1e-6)}},
		{"at max", 5, 3, 4, 5, [2]float64{3 * 5 / (5 + 1e-6), 4 * 5 / (5 + 1e-6)}},
		{"zero max", 0, 3, 4, 5, [2]float64{0, 0}},
		{"infinite", 1, math.Inf(1), 4, math.Inf(1), [2]float64{math.Inf(1), 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := scalarParam(0), scalarParam(0)
			a.Grad.Set(0, 0, tt.g1)
			b.Grad.Set(0, 0, tt.g2)
			norm := nn.ClipGradNorm([]*nn.Param{a, b}, tt.maxNorm)
			if norm != tt.wantNorm {
				t.Errorf("norm = %g, want %g", norm, tt.wantNorm)
			}
			got := []float64{a.Grad.At(0, 0), b.Grad.At(0, 0)}
			if !floats.EqualApprox(got, tt.want[:], 1e-15) && !floats.Equal(got, tt.want[:]) {
				t.Errorf("grads = %v, want %v", got, tt.want)
			}
			if after := math.Hypot(got[0], got[1]); after > math.Max(tt.maxNorm, tt.wantNorm) {
				t.Errorf("norm after clipping = %g, above %g", after, tt.maxNorm)
			}
		})
	}
}

func TestClipGradNormMatrix(t *testing.T) {
	p := nn.NewParam("w", 2, 2)
	setFlat(p.Grad, []float64{1, 1, 1, 1}) // Frobenius norm 2
	if norm := nn.ClipGradNorm([]*nn.Param{p}, 1); norm != 2 {
		t.Errorf("norm = %g, want 2", norm)
	}
	if got := mat.Norm(p.Grad, 2); math.Abs(got-1) > 1e-6 {
		t.Errorf("norm after clipping = %g, want 1", got)
	}
}

// TestTrainLinearRegression fits y = 2x - 1 with one Dense unit, checking
// that Dense, MSE and each optimizer compose into training that converges.
func TestTrainLinearRegression(t *testing.T) {
	tests := []struct {
		name  string
		opt   nn.Optimizer
		steps int
	}{
		{"sgd", nn.NewSGD(0.1, 0), 500},
		{"sgd momentum", nn.NewSGD(0.05, 0.9), 300},
		{"adam", nn.NewAdam(0.05), 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(31, 32))
			d := nn.NewDense("fc", 1, 1, true, rng)
			x := randMatrix(rng, 16, 1)
			y := mat.NewDense(16, 1, nil)
			y.Apply(func(_, _ int, v float64) float64 { return 2*v - 1 }, x)
			for range tt.steps {
				for _, p := range d.Params() {
					p.ZeroGrad()
				}
				_, grad := nn.MSE(d.Forward(x), y)
				d.Backward(grad)
				tt.opt.Step(d.Params())
			}
			if w, b := d.Weight.W.At(0, 0), d.Bias.W.At(0, 0); math.Abs(w-2) > 1e-3 || math.Abs(b+1) > 1e-3 {
				t.Errorf("fitted w = %g, b = %g; want 2, -1", w, b)
			}
		})
	}
}
