package scale_test

import (
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/scale"
)

// relClose reports whether got is within tol of want, relative to |want|.
func relClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// same reports whether got and want are equal, treating NaN as equal to
// itself.
func same(got, want float64) bool {
	return got == want || math.IsNaN(got) && math.IsNaN(want)
}

func TestSignedLogValues(t *testing.T) {
	e := math.E
	tests := []struct {
		name string
		x    float64
		want float64
	}{
		{"zero", 0, 0},
		{"one", 1, 1},
		{"minus one", -1, -1},
		{"half", 0.5, 0.5},
		{"minus half", -0.5, -0.5},
		{"e", e, 2},
		{"minus e", -e, -2},
		{"e squared", e * e, 3},
		{"minus e squared", -e * e, -3},
		{"e to the 10", math.Exp(10), 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scale.SignedLog(tt.x); !relClose(got, tt.want, 1e-15) {
				t.Errorf("SignedLog(%v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

func TestSignedExpValues(t *testing.T) {
	e := math.E
	tests := []struct {
		name string
		y    float64
		want float64
	}{
		{"zero", 0, 0},
		{"one", 1, 1},
		{"minus one", -1, -1},
		{"half", 0.5, 0.5},
		{"two", 2, e},
		{"minus two", -2, -e},
		{"three", 3, e * e},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scale.SignedExp(tt.y); !relClose(got, tt.want, 1e-15) {
				t.Errorf("SignedExp(%v) = %v, want %v", tt.y, got, tt.want)
			}
		})
	}
}

func TestSignedNonFinite(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		name string
		f    func(float64) float64
		x    float64
		want float64
	}{
		{"SignedLog NaN", scale.SignedLog, nan, nan},
		{"SignedLog +Inf", scale.SignedLog, inf, inf},
		{"SignedLog -Inf", scale.SignedLog, -inf, -inf},
		{"SignedExp NaN", scale.SignedExp, nan, nan},
		{"SignedExp +Inf", scale.SignedExp, inf, inf},
		{"SignedExp -Inf", scale.SignedExp, -inf, -inf},
		{"SignedExp overflow", scale.SignedExp, 1000, inf},
		{"SignedExp negative overflow", scale.SignedExp, -1000, -inf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f(tt.x); !same(got, tt.want) {
				t.Errorf("f(%v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

// logGrid returns ±10^(k/perDecade) for k from lo*perDecade to
// hi*perDecade, and zero, in increasing order.
func logGrid(lo, hi, perDecade int) []float64 {
	var xs []float64
	for k := lo * perDecade; k <= hi*perDecade; k++ {
		x := math.Pow(10, float64(k)/float64(perDecade))
		xs = append(xs, x, -x)
	}
	xs = append(xs, 0)
	slices.Sort(xs)
	return xs
}

// nearOne returns values either side of ±1, down to one ulp away.
func nearOne() []float64 {
	xs := []float64{1, math.Nextafter(1, 2), math.Nextafter(1, 0)}
	for _, d := range []float64{1e-15, 1e-12, 1e-9, 1e-6, 1e-3} {
		xs = append(xs, 1+d, 1-d)
	}
	for _, x := range slices.Clone(xs) {
		xs = append(xs, -x)
	}
	return xs
}

func TestSignedOdd(t *testing.T) {
	xs := append(logGrid(-300, 300, 7), nearOne()...)
	xs = append(xs, math.MaxFloat64, math.SmallestNonzeroFloat64)
	for _, x := range xs {
		if got, want := scale.SignedLog(-x), -scale.SignedLog(x); got != want {
			t.Errorf("SignedLog(%v) = %v, want -SignedLog(%v) = %v", -x, got, x, want)
		}
		y := scale.SignedLog(x)
		if got, want := scale.SignedExp(-y), -scale.SignedExp(y); got != want {
			t.Errorf("SignedExp(%v) = %v, want -SignedExp(%v) = %v", -y, got, y, want)
		}
	}
}

func TestSignedMonotone(t *testing.T) {
	xs := append(logGrid(-12, 6, 50), nearOne()...)
	slices.Sort(xs)
	xs = slices.Compact(xs)
	for j := 1; j < len(xs); j++ {
		a, b := scale.SignedLog(xs[j-1]), scale.SignedLog(xs[j])
		if !(a < b) {
			t.Errorf("SignedLog(%v) = %v is not below SignedLog(%v) = %v", xs[j-1], a, xs[j], b)
		}
		if ia, ib := scale.SignedExp(a), scale.SignedExp(b); !(ia < ib) {
			t.Errorf("SignedExp(%v) = %v is not below SignedExp(%v) = %v", a, ia, b, ib)
		}
	}
}

func TestSignedRoundTrip(t *testing.T) {
	xs := append(logGrid(-300, 300, 20), nearOne()...)
	for _, x := range xs {
		y := scale.SignedLog(x)
		if got := scale.SignedExp(y); !relClose(got, x, 1e-12) {
			t.Errorf("SignedExp(SignedLog(%v)) = %v", x, got)
		}
		if math.Abs(x) <= 1 && y != x {
			t.Errorf("SignedLog(%v) = %v, want the identity inside [-1, 1]", x, y)
		}
	}
}
