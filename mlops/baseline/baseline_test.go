package baseline_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// ar2 returns a rows x n matrix of the noiseless series
// y_t = 0.5 + 0.3 y_{t-1} + 0.6 y_{t-2}, each entity started from its own
// two values.
func ar2(rows, n int) series.Matrix {
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for e := range n {
		m.Values[e] = float64(e) - 2
		m.Values[n+e] = 3 - 0.7*float64(e*e)
	}
	for t := 2; t < rows; t++ {
		for e := range n {
			m.Values[t*n+e] = 0.5 + 0.3*m.Values[(t-1)*n+e] + 0.6*m.Values[(t-2)*n+e]
		}
	}
	return m
}

// split calls series.Split and fails t on error.
func split(t *testing.T, m series.Matrix, window int, fraction float64) (train, test []int) {
	t.Helper()
	train, test, err := series.Split(m, window, fraction)
	if err != nil {
		t.Fatal(err)
	}
	return train, test
}

// predict returns f's one-step forecast of row at of m.
func predict(f baseline.Forecaster, m series.Matrix, at int) []float64 {
	dst := baseline.Rows(1, m.N)
	f.Forecast(m, at, dst)
	return dst[0]
}

// near reports whether a and b agree within tol, element by element.
func near(a, b []float64, tol float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) <= tol })
}

func TestConstant(t *testing.T) {
	// 6 rows, fraction 0.5: rows 0..2 train, targets 1, 2 with window 1.
	m := series.Matrix{T: 6, N: 2, Values: []float64{1, 10, 2, 20, 6, 60, 100, 0, 100, 0, 100, 0}}
	train, test := split(t, m, 1, 0.5)
	model, err := baseline.FitForecaster(baseline.KindConstant, m, train, baseline.Options{Window: 1, Season: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := predict(model, m, 4); !slices.Equal(got, []float64{3, 30}) {
		t.Errorf("Predict = %v, want training means [3 30]", got)
	}
	// Errors over test rows 3..5: (3-100)^2 and 30^2, three rows each.
	if got, want := baseline.MSE(model, m, test, nil), (97.0*97+30*30)/2; got != want {
		t.Errorf("MSE = %v, want %v", got, want)
	}
}

func TestLastValue(t *testing.T) {
	m := series.Matrix{T: 5, N: 2, Values: []float64{0, 0, 1, -1, 2, -2, 3, -3, 4, -4}}
	model, err := baseline.FitForecaster(baseline.KindLastValue, m, []int{1, 2}, baseline.Options{Window: 1, Season: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := predict(model, m, 3); !slices.Equal(got, []float64{2, -2}) {
		t.Errorf("Predict(3) = %v, want row 2 [2 -2]", got)
	}
	if got := predict(model, m, 5); !slices.Equal(got, []float64{4, -4}) {
		t.Errorf("Predict(5) = %v, want row 4 [4 -4]", got)
	}
	if got := baseline.MSE(model, m, []int{3, 4}, nil); got != 1 {
		t.Errorf("MSE = %v, want 1", got)
	}
}

func TestOLSRecoversAR2(t *testing.T) {
	m := ar2(40, 5)
	train, test := split(t, m, 2, 0.7)
	model, err := baseline.FitOLS(m, 2, train)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(model.Intercept-0.5) > 1e-9 || !near(model.Weights, []float64{0.6, 0.3}, 1e-9) {
		t.Errorf("OLS = %v + %v, want 0.5 + [0.6 0.3]", model.Intercept, model.Weights)
	}
	if model.Rank != 3 {
		t.Errorf("Rank = %d, want 3", model.Rank)
	}
	if got := baseline.MSE(model, m, test, nil); got > 1e-18 {
		t.Errorf("test MSE = %v, want 0", got)
	}
}

func TestOLSCollinear(t *testing.T) {
	constant := series.Matrix{T: 10, N: 3, Values: slices.Repeat([]float64{7}, 30)}
	tests := []struct {
		name     string
		m        series.Matrix
		window   int
		wantRank int
	}{
		{"window longer than the order", ar2(40, 5), 3, 3},
		{"window much longer than the order", ar2(40, 5), 6, 3},
		{"constant series", constant, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			train, test := split(t, tt.m, tt.window, 0.6)
			model, err := baseline.FitOLS(tt.m, tt.window, train)
			if err != nil {
				t.Fatal(err)
			}
			if model.Rank != tt.wantRank {
				t.Errorf("Rank = %d, want %d", model.Rank, tt.wantRank)
			}
			for _, at := range test {
				if got, want := predict(model, tt.m, at), tt.m.Row(at); !near(got, want, 1e-9) {
					t.Fatalf("Predict(%d) = %v, want %v", at, got, want)
				}
			}
		})
	}
}

// TestOLSMatchesDenseQR checks the blocked reduction against one QR solve of
// the whole design matrix, on noisy data with more rows than one block.
func TestOLSMatchesDenseQR(t *testing.T) {
	const rows, n, window = 90, 30, 3
	r := rand.New(rand.NewPCG(3, 4))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = r.NormFloat64()
		if i >= n {
			m.Values[i] += 0.8 * m.Values[i-n]
		}
	}
	train, _ := split(t, m, window, 0.8)
	model, err := baseline.FitOLS(m, window, train)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(len(train)*n, window+1, nil)
	y := mat.NewVecDense(len(train)*n, nil)
	for i, at := range train {
		for e := range n {
			x.Set(i*n+e, 0, 1)
			for k := range window {
				x.Set(i*n+e, 1+k, m.At(at-window+k, e))
			}
			y.SetVec(i*n+e, m.At(at, e))
		}
	}
	var qr mat.QR
	qr.Factorize(x)
	var want mat.VecDense
	if err := qr.SolveVecTo(&want, false, y); err != nil {
		t.Fatal(err)
	}
	got := append([]float64{model.Intercept}, model.Weights...)
	if !near(got, want.RawVector().Data, 1e-10) {
		t.Errorf("OLS coefficients = %v, want %v", got, want.RawVector().Data)
	}
}

func TestFitErrors(t *testing.T) {
	m := ar2(20, 2)
	nan := ar2(20, 2)
	nan.Values[5] = math.NaN()
	tests := []struct {
		name    string
		kind    baseline.Kind
		m       series.Matrix
		window  int
		train   []int
		wantErr error
	}{
		{"unknown kind", "prophet", m, 2, []int{2, 3}, baseline.ErrUnknownKind},
		{"no training samples", baseline.KindOLS, m, 2, nil, baseline.ErrNoTraining},
		{"no training samples for constant", baseline.KindConstant, m, 2, nil, baseline.ErrNoTraining},
		{"no training samples for last value", baseline.KindLastValue, m, 2, nil, baseline.ErrNoTraining},
		{"target inside first window", baseline.KindOLS, m, 2, []int{1, 2}, series.ErrSampleRange},
		{"target past the data", baseline.KindConstant, m, 2, []int{20}, series.ErrSampleRange},
		{"window zero", baseline.KindOLS, m, 0, []int{2}, series.ErrWindow},
		{"bad shape", baseline.KindLastValue, series.Matrix{T: 3, N: 1}, 1, []int{1}, series.ErrShape},
		{"NaN in training", baseline.KindOLS, nan, 2, []int{2, 3, 4}, baseline.ErrNonFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model, err := baseline.FitForecaster(tt.kind, tt.m, tt.train, baseline.Options{Window: tt.window, Season: 1})
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("FitForecaster error = %v, want %v", err, tt.wantErr)
			}
			if model != nil {
				t.Errorf("FitForecaster = %v, want nil", model)
			}
		})
	}
}

func TestFitNames(t *testing.T) {
	m := ar2(20, 2)
	for _, kind := range []baseline.Kind{baseline.KindConstant, baseline.KindLastValue, baseline.KindOLS} {
		model, err := baseline.FitForecaster(kind, m, []int{2, 3, 4, 5}, baseline.Options{Window: 2, Season: 1})
		if err != nil {
			t.Fatalf("FitForecaster(%q): %v", kind, err)
		}
		if model.Name() != string(kind) {
			t.Errorf("FitForecaster(%q).Name() = %q", kind, model.Name())
		}
	}
}

func TestMSEOfNothing(t *testing.T) {
	if got := baseline.MSE(baseline.LastValue{}, ar2(5, 2), nil, nil); !math.IsNaN(got) {
		t.Errorf("MSE of no samples = %v, want NaN", got)
	}
}
