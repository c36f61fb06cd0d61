package baseline_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestResumeForecastsAsTheForecaster fits ets, theta and arima, takes
// their states at origins, through JSON as an artifact stores them, and
// checks that forecasting from the state gives exactly what the fitted
// forecaster gives from the origin, for all entities and each alone.
func TestResumeForecastsAsTheForecaster(t *testing.T) {
	m := seasonal(72, 4, 6, 0.3, 2)
	train, _ := split(t, m, 3, 0.7)
	for _, season := range []int{1, 6} {
		for _, kind := range []baseline.Kind{baseline.KindETS, baseline.KindTheta, baseline.KindARIMA} {
			f, err := baseline.FitForecaster(kind, m, train, baseline.Options{Window: 3, Season: season})
			if err != nil {
				t.Fatalf("FitForecaster(%q, season %d): %v", kind, season, err)
			}
			for _, origin := range []int{m.T, 50} {
				want := forecast(f, m, origin, 15)
				st, ok := baseline.Resume(f, m, origin)
				if !ok {
					t.Fatalf("Resume(%s) kept no state", kind)
				}
				data, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				var back baseline.State
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				if err := back.Validate(); err != nil {
					t.Fatalf("%s: %v", kind, err)
				}
				got := baseline.Rows(15, m.N)
				back.Forecast(got)
				if !slices.EqualFunc(got, want, slices.Equal) {
					t.Errorf("%s season %d origin %d: from state %v, want %v", kind, season, origin, got[:2], want[:2])
				}
				one := make([]float64, 15)
				back.ForecastEntity(2, one)
				for k := range one {
					if one[k] != want[k][2] {
						t.Fatalf("%s: entity 2 step %d from state %v, want %v", kind, k+1, one[k], want[k][2])
					}
				}
			}
		}
	}
}

// TestResumeKeepsNoStateForWindowForecasters: the forecasters that read
// only the last rows keep none.
func TestResumeKeepsNoStateForWindowForecasters(t *testing.T) {
	m := seasonal(40, 2, 4, 0.1, 1)
	train, _ := split(t, m, 3, 0.7)
	f, err := baseline.FitForecaster(baseline.KindDrift, m, train, baseline.Options{Window: 3, Season: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := baseline.Resume(f, m, m.T); ok {
		t.Error("Resume(drift) kept a state")
	}
}

// TestStateValidateRefusesMalformed: a state without its entities' parts
// is an error, not a panic later.
func TestStateValidateRefusesMalformed(t *testing.T) {
	for _, data := range []string{`{"kind":"ets","ets":{"season":2,"forms":["A,N,X"],"params":[{}],"states":[{"Seasonal":[0,0]}]}}`,
		`{"kind":"arima","arima":{"models":[{}],"filter":[[]],"tail":[[]]}}`, `{"kind":"theta"}`} {
		var s baseline.State
		if err := json.Unmarshal([]byte(data), &s); err != nil {
			t.Fatal(err)
		}
		if s.Validate() == nil {
			t.Errorf("Validate(%s) = nil", data)
		}
	}
}

// TestJoinEqualsTheWholeFit fits ets, theta and arima on two blocks of a
// matrix's entities and checks that the joined fit forecasts exactly as
// the fit of the whole matrix; other kinds are not joined.
func TestJoinEqualsTheWholeFit(t *testing.T) {
	m := seasonal(60, 5, 6, 0.3, 3)
	train, _ := split(t, m, 3, 0.7)
	rows := slices.Max(train) + 1
	block := func(lo, hi int) series.Matrix {
		sub := series.Matrix{T: rows, N: hi - lo}
		for r := range rows {
			sub.Values = append(sub.Values, m.Values[r*m.N+lo:r*m.N+hi]...)
		}
		return sub
	}
	opt := baseline.Options{Window: 3, Season: 6}
	for _, kind := range []baseline.Kind{baseline.KindETS, baseline.KindTheta, baseline.KindARIMA} {
		whole, err := baseline.FitForecaster(kind, m, train, opt)
		if err != nil {
			t.Fatal(err)
		}
		var parts []baseline.Forecaster
		for _, b := range [][2]int{{0, 2}, {2, 5}} {
			p, err := baseline.FitForecaster(kind, block(b[0], b[1]), train, opt)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		joined, err := baseline.Join(parts)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := forecast(joined, m, m.T, 8), forecast(whole, m, m.T, 8); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s: joined %v, whole %v", kind, got[0], want[0])
		}
	}
	if _, err := baseline.Join([]baseline.Forecaster{baseline.LastValue{}}); err == nil {
		t.Error("Join(last_value) = nil error")
	}
}
