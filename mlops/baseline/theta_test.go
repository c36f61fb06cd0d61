package baseline_test

import (
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestThetaFixed checks the forecast of a hand-set Theta with alpha 0.5
// and drift 0.5 on the rows 0 1 2 3: the level runs 0, 0.5, 1.25, 2.125;
// with n = 4 rows seen (1 - 0.5^4)/0.5 = 1.875, so the forecasts of rows 4
// and 5 are 2.125 + 0.5*1.875 = 3.0625 and 2.125 + 0.5*2.875 = 3.5625.
func TestThetaFixed(t *testing.T) {
	nan := math.NaN()
	m := series.Matrix{T: 6, N: 1, Values: []float64{0, 1, 2, 3, nan, nan}}
	th := &baseline.Theta{
		Season:   1,
		Alpha:    []float64{0.5},
		Drift:    []float64{0.5},
		Seasonal: series.Matrix{T: 1, N: 1, Values: []float64{0}},
	}
	got := forecast(th, m, 4, 2)
	if !near(got[0], []float64{3.0625}, 1e-12) || !near(got[1], []float64{3.5625}, 1e-12) {
		t.Errorf("Forecast = %v, want [[3.0625] [3.5625]]", got)
	}
}

// TestThetaTrend fits Theta on y(t) = 2 + 0.5 t, plus an additive season
// of 4 where the case has one, over training rows 0..9 or 0..19. The
// classical decomposition of a line plus a season returns the season
// exactly; the adjusted rows are the line, so the drift is half its slope,
// 0.25, and the one-step error falls as alpha rises to its bound 0.9999,
// where the level is the last adjusted value. The forecast of row
// origin+k is then y(origin-1) - s(origin-1) + 0.25*(k+1) + s(origin+k):
// half the trend's slope, as Hyndman & Billah's formula says.
func TestThetaTrend(t *testing.T) {
	tests := []struct {
		name    string
		season  int
		pattern []float64
		train   int
	}{
		{"no season", 1, []float64{0}, 10},
		{"season 4", 4, []float64{1, -2, 0.5, 0.5}, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := func(row int) float64 { return 2 + 0.5*float64(row) + tt.pattern[row%tt.season] }
			m := series.Matrix{T: tt.train + 4, N: 1, Values: make([]float64, tt.train+4)}
			for row := range m.T {
				m.Values[row] = y(row)
			}
			train := series.Samples(series.Matrix{T: tt.train, N: 1, Values: make([]float64, tt.train)}, 1)
			f, err := baseline.FitForecaster(baseline.KindTheta, m, train, baseline.Options{Window: 1, Season: tt.season})
			if err != nil {
				t.Fatal(err)
			}
			th := f.(*baseline.Theta)
			if !near(th.Drift, []float64{0.25}, 1e-12) || !near(th.Alpha, []float64{0.9999}, 1e-5) {
				t.Errorf("drift %v, alpha %v, want 0.25, 0.9999", th.Drift, th.Alpha)
			}
			if !near(th.Seasonal.Values, tt.pattern, 1e-12) {
				t.Errorf("seasonal indices %v, want %v", th.Seasonal.Values, tt.pattern)
			}
			for _, origin := range []int{tt.train, m.T} {
				got := forecast(f, m, origin, 3)
				level := y(origin-1) - tt.pattern[(origin-1)%tt.season]
				for k := range got {
					want := level + 0.25*float64(k+1) + tt.pattern[(origin+k)%tt.season]
					if !near(got[k], []float64{want}, 1e-3) {
						t.Errorf("origin %d, step %d = %v, want %v", origin, k, got[k], want)
					}
				}
			}
		})
	}
}
