package baseline_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// forecast returns f's forecasts of h rows of m from origin.
func forecast(f baseline.Forecaster, m series.Matrix, origin, h int) [][]float64 {
	dst := make([][]float64, h)
	for k := range dst {
		dst[k] = make([]float64, m.N)
	}
	f.Forecast(m, origin, dst)
	return dst
}

// seasonal returns a rows x n matrix of a trend plus a season of the given
// length plus uniform noise of the given amplitude, each entity with its
// own slope and phase.
func seasonal(rows, n, season int, noise float64, seed uint64) series.Matrix {
	r := rand.New(rand.NewPCG(seed, 1))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for t := range rows {
		for e := range n {
			angle := 2*math.Pi*float64(t)/float64(season) + float64(e)
			m.Values[t*n+e] = 0.02*float64(e+1)*float64(t) + 2*math.Sin(angle) + noise*(2*r.Float64()-1)
		}
	}
	return m
}

func TestKinds(t *testing.T) {
	want := []baseline.Kind{"last_value", "seasonal_naive", "drift", "constant", "ols", "ar_diff", "ets", "theta", "arima"}
	if got := baseline.Kinds(); !slices.Equal(got, want) {
		t.Errorf("Kinds() = %v, want %v", got, want)
	}
}

// TestForecastReadsOnlyThePast fits every kind, then forecasts from
// origins whose rows at and after the origin are NaN: the forecasts must
// be finite and equal those made with the true rows there.
func TestForecastReadsOnlyThePast(t *testing.T) {
	m := seasonal(60, 3, 4, 0.1, 1)
	train, _ := split(t, m, 3, 0.7)
	for _, season := range []int{1, 4} {
		for _, kind := range baseline.Kinds() {
			f, err := baseline.FitForecaster(kind, m, train, baseline.Options{Window: 3, Season: season})
			if err != nil {
				t.Fatalf("FitForecaster(%q, season %d): %v", kind, season, err)
			}
			if f.Name() != string(kind) {
				t.Errorf("Name() = %q, want %q", f.Name(), kind)
			}
			for _, origin := range []int{10, 42, 55, m.T} {
				cut := series.Matrix{T: m.T, N: m.N, Values: slices.Clone(m.Values)}
				for i := origin * m.N; i < len(cut.Values); i++ {
					cut.Values[i] = math.NaN()
				}
				want := forecast(f, m, origin, 9)
				got := forecast(f, cut, origin, 9)
				for k := range got {
					if !near(got[k], want[k], 0) || slices.ContainsFunc(got[k], math.IsNaN) {
						t.Fatalf("%s, season %d, origin %d: step %d = %v with NaN future, %v without",
							kind, season, origin, k, got[k], want[k])
					}
				}
			}
		}
	}
}

// TestRecursiveOLS checks a three-step recursive forecast of a hand-set
// OLS, x(t) = 1 + 0.5 x(t-2) + 0.25 x(t-1), from rows [2 0] and [4 8]:
//
//	entity 0: 1 + 0.5*2 + 0.25*4 = 3, 1 + 0.5*4 + 0.25*3 = 3.75,
//	          1 + 0.5*3 + 0.25*3.75 = 3.4375
//	entity 1: 1 + 0 + 2 = 3, 1 + 4 + 0.75 = 5.75, 1 + 1.5 + 1.4375 = 3.9375
func TestRecursiveOLS(t *testing.T) {
	m := series.Matrix{T: 4, N: 2, Values: []float64{9, 9, 2, 0, 4, 8, math.NaN(), math.NaN()}}
	o := &baseline.OLS{Intercept: 1, Weights: []float64{0.5, 0.25}}
	want := [][]float64{{3, 3}, {3.75, 5.75}, {3.4375, 3.9375}}
	for _, f := range []baseline.Forecaster{o, baseline.Recursive(o, 2)} {
		got := forecast(f, m, 3, 3)
		for k := range want {
			if !near(got[k], want[k], 1e-12) {
				t.Errorf("step %d = %v, want %v", k, got[k], want[k])
			}
		}
	}
}

func TestOneStepForecasts(t *testing.T) {
	m := series.Matrix{T: 4, N: 2, Values: []float64{1, 2, 3, 4, 5, 6, 7, 8}}
	tests := []struct {
		name   string
		f      baseline.Forecaster
		origin int
		want   [][]float64
	}{
		{"last value", baseline.LastValue{}, 3, [][]float64{{5, 6}, {5, 6}}},
		{"constant", &baseline.Constant{Mean: []float64{-1, 1}}, 4, [][]float64{{-1, 1}, {-1, 1}}},
		{"seasonal naive of season 1", baseline.SeasonalNaive{Season: 1}, 3, [][]float64{{5, 6}, {5, 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := forecast(tt.f, m, tt.origin, len(tt.want))
			for k := range tt.want {
				if !slices.Equal(got[k], tt.want[k]) {
					t.Errorf("step %d = %v, want %v", k, got[k], tt.want[k])
				}
			}
		})
	}
}

func TestFitForecasterErrors(t *testing.T) {
	m := seasonal(40, 2, 4, 0, 1)
	nan := seasonal(40, 2, 4, 0, 1)
	nan.Values[1] = math.NaN()
	// upTo returns the training samples 1..last, as series.Split gives
	// them for window 1.
	upTo := func(last int) []int {
		return series.Samples(series.Matrix{T: last + 1, N: 1, Values: make([]float64, last+1)}, 1)
	}
	tests := []struct {
		name    string
		kind    baseline.Kind
		m       series.Matrix
		train   []int
		opt     baseline.Options
		wantErr error
	}{
		{"unknown kind", "prophet", m, upTo(20), baseline.Options{Window: 1, Season: 1}, baseline.ErrUnknownKind},
		{"season zero", baseline.KindLastValue, m, upTo(20), baseline.Options{Window: 1}, baseline.ErrSeason},
		{"season over a third of the rows", baseline.KindETS, m, upTo(35), baseline.Options{Window: 1, Season: 13}, baseline.ErrSeason},
		{"season 2 in 5 rows", baseline.KindTheta, m, upTo(4), baseline.Options{Window: 1, Season: 2}, baseline.ErrSeason},
		{"ets in 3 rows", baseline.KindETS, m, upTo(2), baseline.Options{Window: 1, Season: 1}, baseline.ErrTooShort},
		{"no training samples", baseline.KindDrift, m, nil, baseline.Options{Window: 1, Season: 1}, baseline.ErrNoTraining},
		{"ar_diff without a usable sample", baseline.KindARDiff, m, []int{2}, baseline.Options{Window: 2, Season: 1}, baseline.ErrNoTraining},
		{"NaN for ets", baseline.KindETS, nan, upTo(20), baseline.Options{Window: 1, Season: 4}, baseline.ErrNonFinite},
		{"NaN for theta", baseline.KindTheta, nan, upTo(20), baseline.Options{Window: 1, Season: 1}, baseline.ErrNonFinite},
		{"NaN for arima", baseline.KindARIMA, nan, upTo(20), baseline.Options{Window: 1, Season: 4}, baseline.ErrNonFinite},
		{"NaN for drift", baseline.KindDrift, nan, upTo(20), baseline.Options{Window: 1, Season: 1}, baseline.ErrNonFinite},
		{"NaN for ar_diff", baseline.KindARDiff, nan, upTo(20)[1:], baseline.Options{Window: 2, Season: 1}, baseline.ErrNonFinite},
		{"window zero", baseline.KindOLS, m, upTo(20), baseline.Options{Season: 1}, series.ErrWindow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := baseline.FitForecaster(tt.kind, tt.m, tt.train, tt.opt)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("FitForecaster error = %v, want %v", err, tt.wantErr)
			}
			if f != nil {
				t.Errorf("FitForecaster = %v, want nil", f)
			}
		})
	}
}

// TestOneStepMatchesForecast checks that the one-pass one-step forecasts
// of ets, theta and arima are what Forecast gives row by row.
func TestOneStepMatchesForecast(t *testing.T) {
	m := seasonal(48, 3, 4, 0.3, 9)
	var train []int
	for t := 4; t < 36; t++ {
		train = append(train, t)
	}
	for _, kind := range []baseline.Kind{baseline.KindETS, baseline.KindTheta, baseline.KindARIMA} {
		f, err := baseline.FitForecaster(kind, m, train, baseline.Options{Window: 4, Season: 4})
		if err != nil {
			t.Fatal(err)
		}
		o := f.(baseline.OneStepper)
		got := make([]float64, (m.T-5)*m.N)
		o.OneStep(m, 5, got)
		for row := 5; row < m.T; row++ {
			want := [][]float64{make([]float64, m.N)}
			f.Forecast(m, row, want)
			for n := range m.N {
				if d := math.Abs(got[(row-5)*m.N+n] - want[0][n]); d > 1e-12 {
					t.Fatalf("%s row %d entity %d: OneStep %v, Forecast %v", kind, row, n, got[(row-5)*m.N+n], want[0][n])
				}
			}
		}
	}
}
