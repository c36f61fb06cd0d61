package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/nn"
)

// gradTol is the largest relative error gradient checks accept.
const gradTol = 1e-6

// fdSettings is the finite-difference scheme of the gradient checks: central
// differences, whose truncation error is O(h²) ≈ 1e-12 at this step, well
// below gradTol.
func fdSettings() *fd.Settings { return &fd.Settings{Formula: fd.Central, Step: 1e-6} }

// numericGrad returns the central-difference gradient of f at x.
func numericGrad(f func([]float64) float64, x []float64) []float64 {
	return fd.Gradient(nil, f, x, fdSettings())
}

// gradRelErr is the norm-based relative error ‖a−b‖₂ / max(1e-8, ‖a‖₂+‖b‖₂)
// between an analytic and a numeric gradient. Unlike an elementwise ratio it
// does not blow up on entries that are near zero in both, while an error in
// any entry large enough to matter still shows.
func gradRelErr(a, b []float64) float64 {
	diff := make([]float64, len(a))
	floats.SubTo(diff, a, b)
	return floats.Norm(diff, 2) / math.Max(1e-8, floats.Norm(a, 2)+floats.Norm(b, 2))
}

// randMatrix returns an r x c matrix of values uniform in [-1, 1).
func randMatrix(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, 2*rng.Float64()-1)
		}
	}
	return m
}

// dot returns Σ a⊙b, the scalar loss whose gradient with respect to b is a.
func dot(a, b *mat.Dense) float64 {
	var e mat.Dense
	e.MulElem(a, b)
	return mat.Sum(&e)
}

// flat returns m's values in row-major order.
func flat(m *mat.Dense) []float64 {
	r, c := m.Dims()
	return mat.DenseCopyOf(m).RawMatrix().Data[:r*c]
}

// setFlat copies row-major values into m.
func setFlat(m *mat.Dense, v []float64) {
	r, c := m.Dims()
	m.Copy(mat.NewDense(r, c, v))
}

func TestDenseGradient(t *testing.T) {
	tests := []struct {
		name         string
		n, in, out   int
		bias         bool
		seed1, seed2 uint64
	}{
		{"bias", 5, 4, 3, true, 1, 2},
		{"no bias", 6, 3, 5, false, 3, 4},
		{"single row", 1, 7, 2, true, 5, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tt.seed1, tt.seed2))
			d := nn.NewDense("fc", tt.in, tt.out, tt.bias, rng)
			if tt.bias { // a zero bias would hide a wrong bias term in Forward
				setFlat(d.Bias.W, flat(randMatrix(rng, 1, tt.out)))
			}
			x := randMatrix(rng, tt.n, tt.in)
			dy := randMatrix(rng, tt.n, tt.out)
			d.Forward(x)
			dx := d.Backward(dy)

			loss := func(v []float64) float64 {
				return dot(dy, d.Forward(mat.NewDense(tt.n, tt.in, v)))
			}
			if e := gradRelErr(flat(dx), numericGrad(loss, flat(x))); e > gradTol {
				t.Errorf("dL/dx relative error %g > %g", e, gradTol)
			}
			for _, p := range d.Params() {
				orig := flat(p.W)
				loss := func(v []float64) float64 {
					setFlat(p.W, v)
					return dot(dy, d.Forward(x))
				}
				num := numericGrad(loss, orig)
				setFlat(p.W, orig)
				if e := gradRelErr(flat(p.Grad), num); e > gradTol {
					t.Errorf("dL/d%s relative error %g > %g", p.Name, e, gradTol)
				}
			}
		})
	}
}

func TestDenseForwardByHand(t *testing.T) {
	tests := []struct {
		name string
		w, b []float64 // b nil for no bias
		in   int
		x    []float64
		want []float64
	}{
		{"identity weights", []float64{1, 0, 0, 1}, []float64{10, 20}, 2,
			[]float64{1, 2, 3, 4}, []float64{11, 22, 13, 24}},
		{"identity no bias", []float64{1, 0, 0, 1}, nil, 2,
			[]float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}},
		{"2 to 1 sum", []float64{1, 1}, []float64{-1}, 2,
			[]float64{1, 2, 3, 4}, []float64{2, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := len(tt.w) / tt.in
			d := nn.NewDense("fc", tt.in, out, tt.b != nil, rand.New(rand.NewPCG(1, 1)))
			setFlat(d.Weight.W, tt.w)
			if tt.b != nil {
				setFlat(d.Bias.W, tt.b)
			}
			n := len(tt.x) / tt.in
			got := d.Forward(mat.NewDense(n, tt.in, tt.x))
			if !floats.Equal(flat(got), tt.want) {
				t.Errorf("Forward = %v, want %v", flat(got), tt.want)
			}
		})
	}
}

func TestDenseBackwardIdentity(t *testing.T) {
	d := nn.NewDense("fc", 2, 2, true, rand.New(rand.NewPCG(1, 1)))
	setFlat(d.Weight.W, []float64{1, 0, 0, 1})
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	dy := mat.NewDense(2, 2, []float64{1, -1, 2, 0.5})
	d.Forward(x)
	dx := d.Backward(dy)
	checks := []struct {
		name      string
		got, want []float64
	}{
		{"dx = dy", flat(dx), []float64{1, -1, 2, 0.5}},
		// x^T dy = [[1,3],[2,4]] [[1,-1],[2,0.5]]
		{"weight grad", flat(d.Weight.Grad), []float64{7, 0.5, 10, 0}},
		{"bias grad", flat(d.Bias.Grad), []float64{3, -0.5}},
	}
	for _, c := range checks {
		if !floats.Equal(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestDenseGradientsAccumulate(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	d := nn.NewDense("fc", 3, 2, true, rng)
	x, dy := randMatrix(rng, 4, 3), randMatrix(rng, 4, 2)
	d.Forward(x)
	d.Backward(dy)
	once := [][]float64{flat(d.Weight.Grad), flat(d.Bias.Grad)}
	d.Forward(x)
	d.Backward(dy)
	for i, p := range d.Params() {
		want := make([]float64, len(once[i]))
		floats.ScaleTo(want, 2, once[i])
		if !floats.EqualApprox(flat(p.Grad), want, 1e-12) {
			t.Errorf("%s after two Backward = %v, want %v", p.Name, flat(p.Grad), want)
		}
		p.ZeroGrad()
		if mat.Norm(p.Grad, 2) != 0 {
			t.Errorf("%s after ZeroGrad = %v, want zeros", p.Name, flat(p.Grad))
		}
	}
}

func TestNewDenseInit(t *testing.T) {
	const in, out = 30, 20
	a := nn.NewDense("fc", in, out, true, rand.New(rand.NewPCG(9, 9)))
	b := nn.NewDense("fc", in, out, true, rand.New(rand.NewPCG(9, 9)))
	if !mat.Equal(a.Weight.W, b.Weight.W) {
		t.Error("same seed gave different weights")
	}
	limit := math.Sqrt(6.0 / (in + out))
	w := flat(a.Weight.W)
	if lo, hi := floats.Min(w), floats.Max(w); lo < -limit || hi > limit || hi-lo < limit {
		t.Errorf("weights span [%g, %g], want inside and most of [-%g, %g]", lo, hi, limit, limit)
	}
	if mat.Norm(a.Bias.W, 2) != 0 {
		t.Errorf("bias = %v, want zeros", flat(a.Bias.W))
	}
	if a.Weight.Name != "fc.weight" || a.Bias.Name != "fc.bias" {
		t.Errorf("names = %q, %q", a.Weight.Name, a.Bias.Name)
	}
	if got := len(nn.NewDense("fc", 2, 2, false, rand.New(rand.NewPCG(1, 1))).Params()); got != 1 {
		t.Errorf("no-bias layer has %d params, want 1", got)
	}
}
