//go:build amd64 && !noasm && !gccgo && !safe

package linalg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/linalg"
	"gonum.org/v1/gonum/floats"
)

// TestVecMatchesGonum checks Dot and Axpy against gonum's floats.Dot and
// floats.AddScaled to the bit, on amd64 where gonum sums in assembly, at
// every length up to past two of its unrolled loops.
func TestVecMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
		}
		return v
	}
	for n := range 40 {
		x, y := vec(n), vec(n)
		if got, want := linalg.Dot(x, y), floats.Dot(x, y); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("Dot of length %d is %v, gonum's %v", n, got, want)
		}
		a := rng.NormFloat64()
		got, want := append([]float64(nil), y...), append([]float64(nil), y...)
		linalg.Axpy(got, a, x)
		floats.AddScaled(want, a, x)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("Axpy of length %d: element %d is %v, gonum's %v", n, i, got[i], want[i])
			}
		}
	}
}
