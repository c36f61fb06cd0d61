package scale_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/scale"
)

// sample returns n normal values with the given mean and spread, the same
// on every run for the same seed.
func sample(seed uint64, n int, mean, spread float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = mean + spread*r.NormFloat64()
	}
	return xs
}

// twoPass returns the moments of xs computed from their mean.
func twoPass(xs []float64) scale.Moments {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	var m2 float64
	for _, x := range xs {
		m2 += (x - mean) * (x - mean)
	}
	return scale.Moments{N: int64(len(xs)), Mean: mean, M2: m2}
}

// accumulate returns the moments of xs built with Add.
func accumulate(xs []float64) scale.Moments {
	var m scale.Moments
	for _, x := range xs {
		m.Add(x)
	}
	return m
}

// checkMoments fails t unless got matches want within tol, relative.
func checkMoments(t *testing.T, got, want scale.Moments, tol float64) {
	t.Helper()
	if got.N != want.N || !relClose(got.Mean, want.Mean, tol) || !relClose(got.M2, want.M2, tol) {
		t.Errorf("moments = %+v, want %+v", got, want)
	}
}

// momentCases are the data sets the moments tests draw. tol is the relative
// agreement asked of M2: 1e-12 for well-conditioned data, looser for
// "offset", whose mean is 3e5 spreads away from zero so that each deviation
// x-mean already carries a relative rounding error near 1e-11 (a
// sum-of-squares formula would be off by about 1e-5 there).
var momentCases = []struct {
	name         string
	n            int
	mean, spread float64
	tol          float64
}{
	{"standard", 1000, 0, 1, 1e-12},
	{"shifted", 1000, 100, 3, 1e-12},
	{"offset", 1000, 1e6, 3, 1e-9},
	{"negative", 777, -42, 0.5, 1e-12},
	{"wide", 5000, 10, 1e4, 1e-12},
	{"single", 1, 5, 1, 1e-12},
	{"pair", 2, 5, 1, 1e-12},
}

func TestMomentsAdd(t *testing.T) {
	for i, tt := range momentCases {
		t.Run(tt.name, func(t *testing.T) {
			xs := sample(uint64(i), tt.n, tt.mean, tt.spread)
			checkMoments(t, accumulate(xs), twoPass(xs), tt.tol)
		})
	}
}

func TestMomentsMerge(t *testing.T) {
	for i, tt := range momentCases {
		t.Run(tt.name, func(t *testing.T) {
			xs := sample(uint64(i), tt.n, tt.mean, tt.spread)
			whole := twoPass(xs)
			for _, cut := range []int{0, 1, tt.n / 3, tt.n / 2, tt.n - 1, tt.n} {
				merged := accumulate(xs[:cut]).Merge(accumulate(xs[cut:]))
				checkMoments(t, merged, whole, tt.tol)
			}
			var chunks scale.Moments
			for lo := 0; lo < tt.n; lo += 37 {
				chunks = chunks.Merge(accumulate(xs[lo:min(lo+37, tt.n)]))
			}
			checkMoments(t, chunks, whole, tt.tol)
		})
	}
}

func TestMomentsSmall(t *testing.T) {
	tests := []struct {
		name     string
		xs       []float64
		want     scale.Moments
		variance float64
	}{
		{"empty", nil, scale.Moments{}, 0},
		{"one", []float64{7}, scale.Moments{N: 1, Mean: 7}, 0},
		{"constant", []float64{3.5, 3.5, 3.5}, scale.Moments{N: 3, Mean: 3.5}, 0},
		{"two", []float64{1, 3}, scale.Moments{N: 2, Mean: 2, M2: 2}, 1},
		{"four", []float64{2, 4, 4, 4, 5, 5, 7, 9}, scale.Moments{N: 8, Mean: 5, M2: 32}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := accumulate(tt.xs)
			if m != tt.want {
				t.Errorf("moments = %+v, want %+v", m, tt.want)
			}
			if got := m.Variance(); got != tt.variance {
				t.Errorf("Variance() = %v, want %v", got, tt.variance)
			}
			if got, want := m.Std(), math.Sqrt(tt.variance); got != want {
				t.Errorf("Std() = %v, want %v", got, want)
			}
		})
	}
}

func TestFinite(t *testing.T) {
	tests := []struct {
		x    float64
		want bool
	}{
		{0, true},
		{-1.5, true},
		{math.MaxFloat64, true},
		{math.SmallestNonzeroFloat64, true},
		{math.NaN(), false},
		{math.Inf(1), false},
		{math.Inf(-1), false},
	}
	for _, tt := range tests {
		if got := scale.Finite(tt.x); got != tt.want {
			t.Errorf("Finite(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
}
