package baseline_test

import (
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestMean combines the last value and the seasonal naive of season 2 on
// a series whose entity 0 is 1, 4, 9, 16 (t+1 squared) and entity 1 ten
// times that. From origin 4, step 1 is the mean of 16 (the last value)
// and 9 (a season back): 12.5. Step 2 takes 12.5 as row 4: the mean of
// 12.5 and 16 is 14.25; step 3 that of 14.25 and 12.5, 13.375. Entity 1
// is ten times each.
func TestMean(t *testing.T) {
	m := series.Matrix{T: 4, N: 2, Values: []float64{1, 10, 4, 40, 9, 90, 16, 160}}
	f := &baseline.Mean{Members: []baseline.Forecaster{baseline.LastValue{}, baseline.SeasonalNaive{Season: 2}}}
	if f.Name() != "combination" {
		t.Errorf("Name() = %q", f.Name())
	}
	got := forecast(f, m, 4, 3)
	want := [][]float64{{12.5, 125}, {14.25, 142.5}, {13.375, 133.75}}
	for k := range want {
		for i := range want[k] {
			if got[k][i] != want[k][i] {
				t.Errorf("step %d entity %d = %v, want %v", k+1, i, got[k][i], want[k][i])
			}
		}
	}
}

// TestMeanOneStep checks that a combination's one pass over the history
// gives, row by row, what Forecast gives one step ahead, with a member
// that filters the history in one pass (ets) and one that does not
// (drift).
func TestMeanOneStep(t *testing.T) {
	m := seasonal(60, 3, 4, 0.1, 2)
	train, _ := split(t, m, 3, 0.7)
	opt := baseline.Options{Window: 3, Season: 4}
	var members []baseline.Forecaster
	for _, kind := range []baseline.Kind{baseline.KindETS, baseline.KindDrift} {
		f, err := baseline.FitForecaster(kind, m, train, opt)
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, f)
	}
	f := &baseline.Mean{Members: members}
	const from = 10
	pass := make([]float64, (m.T-from)*m.N)
	f.OneStep(m, from, pass)
	for row := from; row < m.T; row++ {
		one := forecast(f, m, row, 1)[0]
		for i, v := range one {
			if d := math.Abs(pass[(row-from)*m.N+i] - v); d > 1e-12 {
				t.Fatalf("row %d entity %d: one pass %v, Forecast %v", row, i, pass[(row-from)*m.N+i], v)
			}
		}
	}
}
