package baseline_test

import (
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestETSStep checks one filter step and the projection by hand, with
// season 2, alpha 0.5, beta 0.1, gamma 0.2, phi 0.9, and initial level 1,
// trend 0.5 and seasonal indices [1 -1]. Row 0 is 3:
//
//	yhat(0) = 1 + 0.9*0.5 + 1 = 2.45, e = 0.55
//	l = 1 + 0.45 + 0.5*0.55 = 1.725, b = 0.45 + 0.1*0.55 = 0.505,
//	s[0] = 1 + 0.2*0.55 = 1.11
//	yhat(1) = 1.725 + 0.9*0.505 - 1 = 1.1795
//	yhat(2) = 1.725 + (0.9+0.81)*0.505 + 1.11 = 3.69855
//
// The rows after row 0 are NaN: the forecast from origin 1 must not read
// them.
func TestETSStep(t *testing.T) {
	nan := math.NaN()
	m := series.Matrix{T: 4, N: 1, Values: []float64{3, nan, nan, nan}}
	e := &baseline.ETS{
		Season: 2,
		Params: []baseline.ETSParams{{Alpha: 0.5, Beta: 0.1, Gamma: 0.2, Phi: 0.9}},
		Init:   []baseline.ETSState{{Level: 1, Trend: 0.5, Seasonal: []float64{1, -1}}},
	}
	if got := predict(e, m, 0); !near(got, []float64{2.45}, 1e-12) {
		t.Errorf("Predict(0) = %v, want [2.45]", got)
	}
	got := forecast(e, m, 1, 2)
	if !near(got[0], []float64{1.1795}, 1e-12) || !near(got[1], []float64{3.69855}, 1e-12) {
		t.Errorf("Forecast from 1 = %v, want [[1.1795] [3.69855]]", got)
	}
	if !slices.Equal(e.Init[0].Seasonal, []float64{1, -1}) {
		t.Errorf("Forecast changed the initial seasonal indices to %v", e.Init[0].Seasonal)
	}
}

// TestETSNoiseless fits ETS on a linear trend plus an additive season of
// 4, without noise. The initial states are then exact, so the in-sample
// error comes only from the damping (phi <= 0.98) and must be tiny; the
// forecast two seasons ahead loses at most slope*(h - (phi+...+phi^h)),
// under 0.04 for slope 0.05 and h = 8.
func TestETSNoiseless(t *testing.T) {
	pattern := [][]float64{{1, -0.5, 0.5, -1}, {-2, 0, 2, 0}}
	slopes := []float64{0.05, -0.03}
	m := series.Matrix{T: 40, N: 2, Values: make([]float64, 80)}
	for row := range m.T {
		for n := range m.N {
			m.Values[row*2+n] = 3 + slopes[n]*float64(row) + pattern[n][row%4]
		}
	}
	train, _ := split(t, m, 1, 0.8) // training rows 0..31
	f, err := baseline.FitForecaster(baseline.KindETS, m, train, baseline.Options{Window: 1, Season: 4})
	if err != nil {
		t.Fatal(err)
	}
	e := f.(*baseline.ETS)
	for n, p := range e.Params {
		if !(0 < p.Beta && p.Beta < p.Alpha && p.Alpha < 1 && 0 < p.Gamma && p.Gamma < 1-p.Alpha && 0.8 <= p.Phi && p.Phi <= 0.98) {
			t.Errorf("entity %d: parameters %+v outside their ranges", n, p)
		}
	}
	rows := series.Samples(series.Matrix{T: 32, N: 1, Values: make([]float64, 32)}, 1)
	if sse := baseline.MSE(e, m, append([]int{0}, rows...), nil) * 64; sse > 1e-4 {
		t.Errorf("in-sample SSE = %v, want < 1e-4", sse)
	}
	got := forecast(e, m, 32, 8)
	for k := range got {
		if want := m.Row(32 + k); !near(got[k], want, 0.04) {
			t.Errorf("step %d = %v, want row %d %v", k, got[k], 32+k, want)
		}
	}
}
