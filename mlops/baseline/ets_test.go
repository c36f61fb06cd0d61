package baseline_test

import (
	"encoding/json"
	"errors"
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
// 4, without noise: the form chosen must be the undamped ETS(A,A,A) that
// made the data, within R's bounds, with a tiny in-sample error; the
// forecast two seasons ahead must be within 0.04, what a damped trend
// (phi <= 0.98) would lose at slope 0.05 and h = 8.
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
		if e.Forms[n] != "A,A,A" {
			t.Errorf("entity %d: form %s, want A,A,A, the model that made the data", n, e.Forms[n])
		}
		if !(1e-4 <= p.Beta && p.Beta <= p.Alpha && p.Alpha <= 0.9999 && 1e-4 <= p.Gamma && p.Gamma <= 1-p.Alpha && p.Phi == 1) {
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

// TestETSArtifacts decodes models stored before forms were chosen, which
// have no Forms: they must forecast as ETS(A,Ad,A) and ETS(A,Ad,N) did,
// by the equations restated here, from every origin and through OneStep.
// A model fitted now must come back from JSON with its forms and forecast
// the same.
func TestETSArtifacts(t *testing.T) {
	m := series.Matrix{T: 24, N: 2, Values: make([]float64, 48)}
	for i := range m.Values {
		m.Values[i] = math.Sin(float64(i)*0.7) + 0.02*float64(i)
	}
	for _, stored := range []string{
		`{"Season":4,"Params":[{"Alpha":0.5,"Beta":0.1,"Gamma":0.2,"Phi":0.9},{"Alpha":0.3,"Beta":0.01,"Gamma":0.05,"Phi":0.95}],` +
			`"Init":[{"Level":1,"Trend":0.5,"Seasonal":[1,-1,0.5,-0.5]},{"Level":-1,"Trend":0.1,"Seasonal":[0.2,0.1,-0.1,-0.2]}]}`,
		`{"Season":1,"Params":[{"Alpha":0.5,"Beta":0.1,"Gamma":0,"Phi":0.9},{"Alpha":0.3,"Beta":0.01,"Gamma":0,"Phi":0.95}],` +
			`"Init":[{"Level":1,"Trend":0.5,"Seasonal":[0]},{"Level":-1,"Trend":0.1,"Seasonal":[0]}]}`,
	} {
		var e baseline.ETS
		if err := json.Unmarshal([]byte(stored), &e); err != nil {
			t.Fatal(err)
		}
		for _, origin := range []int{0, 5, 24} {
			got := forecast(&e, m, origin, 7)
			want := legacyETSForecast(e, m, origin, 7)
			for k := range got {
				if !near(got[k], want[k], 1e-12) {
					t.Errorf("season %d origin %d step %d: %v, stored model forecast %v", e.Season, origin, k+1, got[k], want[k])
				}
			}
		}
		all := make([]float64, 20*m.N)
		e.OneStep(m, 4, all)
		for t0 := 4; t0 < m.T; t0++ {
			if want := legacyETSForecast(e, m, t0, 1)[0]; !near(all[(t0-4)*m.N:(t0-3)*m.N], want, 1e-12) {
				t.Errorf("season %d OneStep row %d: %v, want %v", e.Season, t0, all[(t0-4)*m.N:(t0-3)*m.N], want)
			}
		}
	}
	train, _ := split(t, m, 1, 0.8)
	f, err := baseline.FitForecaster(baseline.KindETS, m, train, baseline.Options{Window: 1, Season: 4})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back baseline.ETS
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Forms, f.(*baseline.ETS).Forms) || len(back.Forms) != m.N {
		t.Errorf("forms %v after JSON, fitted %v", back.Forms, f.(*baseline.ETS).Forms)
	}
	if got, want := forecast(&back, m, 19, 6), forecast(f, m, 19, 6); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("decoded model forecasts %v, fitted %v", got, want)
	}
}

// legacyETSForecast is the forecast of a model stored before forms: the
// additive damped trend with an additive season, by position.
func legacyETSForecast(e baseline.ETS, m series.Matrix, origin, h int) [][]float64 {
	out := baseline.Rows(h, m.N)
	for n, p := range e.Params {
		l, b := e.Init[n].Level, e.Init[n].Trend
		s := slices.Clone(e.Init[n].Seasonal)
		for t := range origin {
			j := t % e.Season
			err := m.At(t, n) - (l + p.Phi*b + s[j])
			l, b = l+p.Phi*b+p.Alpha*err, p.Phi*b+p.Beta*err
			s[j] += p.Gamma * err
		}
		damp, sum := 1.0, 0.0
		for k := range out {
			damp *= p.Phi
			sum += damp
			out[k][n] = l + sum*b + s[(origin+k)%e.Season]
		}
	}
	return out
}

// TestETSFewRows fits ets on 4 and 5 rows: 4 leave no form a finite AICc
// (R's ets finds no model), so the fit must fail as too short rather than
// store an infinite AICc, which JSON cannot hold; 5 give ETS(A,N,N), which
// must encode.
func TestETSFewRows(t *testing.T) {
	m := series.Matrix{T: 5, N: 1, Values: []float64{-1, 3, 2, 4, 3}}
	if _, err := baseline.FitForecaster(baseline.KindETS, m, []int{1, 2, 3}, baseline.Options{Window: 1, Season: 1}); !errors.Is(err, baseline.ErrTooShort) {
		t.Errorf("4 rows: error %v, want ErrTooShort", err)
	}
	f, err := baseline.FitForecaster(baseline.KindETS, m, []int{1, 2, 3, 4}, baseline.Options{Window: 1, Season: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.(*baseline.ETS).Forms; !slices.Equal(got, []string{"A,N,N"}) {
		t.Errorf("5 rows: forms %v, want [A,N,N]", got)
	}
	if _, err := json.Marshal(f); err != nil {
		t.Errorf("5 rows: %v", err)
	}
}

// TestMSEPerEntity checks MSEPerEntity against a hand count for the last
// value, and that its mean is MSE's for a fitted ets (a OneStepper, which
// MSE runs in one pass).
func TestMSEPerEntity(t *testing.T) {
	m := series.Matrix{T: 4, N: 2, Values: []float64{1, 0, 2, 0, 4, 3, 4, 5}}
	// last value: entity 0 errors 2 and 0, entity 1 errors 3 and 2.
	if got := baseline.MSEPerEntity(baseline.LastValue{}, m, []int{2, 3}); !near(got, []float64{2, 6.5}, 1e-12) {
		t.Errorf("last value: %v, want [2 6.5]", got)
	}
	w := series.Matrix{T: 40, N: 3, Values: make([]float64, 120)}
	for i := range w.Values {
		w.Values[i] = math.Sin(float64(i)*0.37) + 0.01*float64(i)
	}
	train, test := split(t, w, 1, 0.7)
	f, err := baseline.FitForecaster(baseline.KindETS, w, train, baseline.Options{Window: 1, Season: 1})
	if err != nil {
		t.Fatal(err)
	}
	per := baseline.MSEPerEntity(f, w, test)
	if got, want := (per[0]+per[1]+per[2])/3, baseline.MSE(f, w, test, nil); math.Abs(got-want) > 1e-12*want {
		t.Errorf("mean of %v = %v, MSE %v", per, got, want)
	}
}
