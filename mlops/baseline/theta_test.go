package baseline_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
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

// TestThetaTrend fits Theta on y(t) = a + 0.5 t, plus an additive season
// of 4 where the case has one, over training rows 0..9 or 0..19: a = 2
// without a season, and a = -5 with one, so that the series crosses zero
// and the season, which passes thetaf's test, is removed additively. The
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
		a       float64
		pattern []float64
		train   int
	}{
		{"no season", 1, 2, []float64{0}, 10},
		{"season 4", 4, -5, []float64{3, -6, 1.5, 1.5}, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := func(row int) float64 { return tt.a + 0.5*float64(row) + tt.pattern[row%tt.season] }
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

// TestThetaFirstArtifact decodes testdata/theta_v1.json, a Theta as the
// first, additive version marshalled it (no Level0, no Multiplicative),
// and checks that it forecasts what that version forecast, from the
// earliest origin, the end of its training rows and past the data.
func TestThetaFirstArtifact(t *testing.T) {
	data, err := os.ReadFile("testdata/theta_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Artifact  json.RawMessage
		Values    []float64
		Forecasts map[string][][]float64
	}
	if err := json.Unmarshal(data, &fixture); err != nil {
		t.Fatal(err)
	}
	th := &baseline.Theta{}
	if err := json.Unmarshal(fixture.Artifact, th); err != nil {
		t.Fatal(err)
	}
	m := series.Matrix{T: len(fixture.Values) / 2, N: 2, Values: fixture.Values}
	for origin, want := range fixture.Forecasts {
		o, _ := strconv.Atoi(origin)
		got := forecast(th, m, o, len(want))
		for k := range want {
			if !near(got[k], want[k], 1e-12) {
				t.Errorf("origin %d step %d = %v, first version %v", o, k, got[k], want[k])
			}
		}
		one := make([]float64, (m.T-o)*m.N)
		if o < m.T {
			th.OneStep(m, o, one)
			if !near(one[:2], want[0], 1e-12) {
				t.Errorf("OneStep from %d = %v, first version %v", o, one[:2], want[0])
			}
		}
	}
}

// TestThetaSeasonKind fits Theta with season 4 on a seasonal series with
// a trend, once positive throughout and once shifted below zero: the
// first is adjusted by multiplicative factors (as thetaf does), the
// second, which factors cannot describe, by additive indices; both keep
// the season through a JSON round trip, and OneStep gives what Forecast
// gives row by row. A series without a season at lag
// 4 (white noise) is not adjusted at all.
func TestThetaSeasonKind(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	noise := make([]float64, 40)
	for i := range noise {
		noise[i] = r.NormFloat64()
	}
	pattern := []float64{1.3, 0.6, 1.1, 1}
	tests := []struct {
		name           string
		y              func(t int) float64
		seasonal, mult bool
	}{
		{"positive", func(t int) float64 { return (10 + 0.5*float64(t)) * pattern[t%4] }, true, true},
		{"crosses zero", func(t int) float64 { return (10+0.5*float64(t))*pattern[t%4] - 20 }, true, false},
		{"white noise", func(t int) float64 { return noise[t] }, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := series.Matrix{T: 40, N: 1, Values: make([]float64, 40)}
			for i := range m.Values {
				m.Values[i] = tt.y(i)
			}
			train, _ := split(t, m, 1, 0.75)
			f, err := baseline.FitForecaster(baseline.KindTheta, m, train, baseline.Options{Window: 1, Season: 4})
			if err != nil {
				t.Fatal(err)
			}
			th := f.(*baseline.Theta)
			seasonal := slices.ContainsFunc(th.Seasonal.Values, func(v float64) bool { return v != 0 && v != 1 })
			if seasonal != tt.seasonal || th.Multiplicative[0] != tt.mult {
				t.Errorf("seasonal %v multiplicative %v (indices %v), want %v %v", seasonal, th.Multiplicative[0], th.Seasonal.Values, tt.seasonal, tt.mult)
			}
			if tt.mult && !near(th.Seasonal.Values, pattern, 0.05) {
				t.Errorf("factors %v, want about %v", th.Seasonal.Values, pattern)
			}
			data, err := json.Marshal(th)
			if err != nil {
				t.Fatal(err)
			}
			back := &baseline.Theta{}
			if err := json.Unmarshal(data, back); err != nil {
				t.Fatal(err)
			}
			if got, want := forecast(back, m, 30, 8), forecast(th, m, 30, 8); !slices.EqualFunc(got, want, func(a, b []float64) bool { return near(a, b, 0) }) {
				t.Errorf("after a JSON round trip %v, before %v", got, want)
			}
			one := make([]float64, m.T-1)
			th.OneStep(m, 1, one)
			for row := 1; row < m.T; row++ {
				if want := forecast(th, m, row, 1)[0][0]; math.Abs(one[row-1]-want) > 1e-12 {
					t.Errorf("row %d: OneStep %v, Forecast %v", row, one[row-1], want)
				}
			}
		})
	}
}
