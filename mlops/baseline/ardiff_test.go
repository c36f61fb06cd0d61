package baseline_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// diffAR2 returns a rows x n matrix whose first differences follow
// d(t) = 0.2 + 0.5 d(t-1) - 0.3 d(t-2) + noise*e(t), e uniform in
// [-1, 1], each entity started from its own three values.
func diffAR2(rows, n int, noise float64) series.Matrix {
	r := rand.New(rand.NewPCG(5, 6))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for e := range n {
		m.Values[e] = float64(e)
		m.Values[n+e] = 1 - float64(e*e)
		m.Values[2*n+e] = 0.5 * float64(e)
	}
	for t := 3; t < rows; t++ {
		for e := range n {
			d1 := m.Values[(t-1)*n+e] - m.Values[(t-2)*n+e]
			d2 := m.Values[(t-2)*n+e] - m.Values[(t-3)*n+e]
			d := 0.2 + 0.5*d1 - 0.3*d2 + noise*(2*r.Float64()-1)
			m.Values[t*n+e] = m.Values[(t-1)*n+e] + d
		}
	}
	return m
}

func TestARDiffRecoversAR2(t *testing.T) {
	m := diffAR2(50, 4, 0)
	train, _ := split(t, m, 2, 0.8)
	a, err := baseline.FitARDiff(m, 2, train)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Intercept-0.2) > 1e-9 || !near(a.Weights, []float64{-0.3, 0.5}, 1e-9) || a.Rank != 3 {
		t.Errorf("ARDiff = %v + %v (rank %d), want 0.2 + [-0.3 0.5] (rank 3)", a.Intercept, a.Weights, a.Rank)
	}
	// Noiseless, the recursive forecast from the split continues the series.
	got := forecast(a, m, 40, 10)
	for k := range got {
		if want := m.Row(40 + k); !near(got[k], want, 1e-8) {
			t.Errorf("step %d = %v, want row %d %v", k, got[k], 40+k, want)
		}
	}
}

// TestARDiffClosedForm compares an order-1 fit on noisy data with the
// closed form of simple regression of d(t) on d(t-1):
// slope = cov(d(t-1), d(t)) / var(d(t-1)), intercept = mean d(t) - slope *
// mean d(t-1), over every entity and target t = 2..29.
func TestARDiffClosedForm(t *testing.T) {
	m := diffAR2(30, 3, 0.5)
	train := series.Samples(m, 1)
	a, err := baseline.FitARDiff(m, 1, train)
	if err != nil {
		t.Fatal(err)
	}
	var x, y []float64
	for _, at := range train[1:] {
		for e := range m.N {
			x = append(x, m.At(at-1, e)-m.At(at-2, e))
			y = append(y, m.At(at, e)-m.At(at-1, e))
		}
	}
	xm, ym := mean(x), mean(y)
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - xm) * (y[i] - ym)
		sxx += (x[i] - xm) * (x[i] - xm)
	}
	slope := sxy / sxx
	if want := []float64{ym - slope*xm, slope}; !near([]float64{a.Intercept, a.Weights[0]}, want, 1e-10) {
		t.Errorf("ARDiff = %v + %v, want %v", a.Intercept, a.Weights, want)
	}
}

func TestARDiffSkipsFirstSample(t *testing.T) {
	m := diffAR2(10, 2, 0)
	if _, err := baseline.FitARDiff(m, 2, []int{2}); !errors.Is(err, baseline.ErrNoTraining) {
		t.Errorf("FitARDiff of sample 2 only: error %v, want ErrNoTraining", err)
	}
}

// mean returns the mean of x.
func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
