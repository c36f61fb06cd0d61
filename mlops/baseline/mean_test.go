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

// TestMedian checks Mean with Median on constant members: with 1, 5 and
// 2 (entity 0; entity 1 ten times each) every step is the middle one, 2,
// where the mean is 8/3; a fourth member of 10 makes it the mean of the
// two middle ones, 3.5. OneStep gives what Forecast gives.
func TestMedian(t *testing.T) {
	m := series.Matrix{T: 4, N: 2, Values: make([]float64, 8)}
	constant := func(v float64) baseline.Forecaster { return &baseline.Constant{Mean: []float64{v, 10 * v}} }
	for _, tt := range []struct {
		members []float64
		want    float64
	}{{[]float64{1, 5, 2}, 2}, {[]float64{1, 5, 2, 10}, 3.5}} {
		f := &baseline.Mean{Median: true}
		for _, v := range tt.members {
			f.Members = append(f.Members, constant(v))
		}
		pass := make([]float64, 2*m.N)
		f.OneStep(m, 2, pass)
		for k, row := range forecast(f, m, 4, 3) {
			if row[0] != tt.want || row[1] != 10*tt.want {
				t.Errorf("members %v step %d: %v, want %v and %v", tt.members, k+1, row, tt.want, 10*tt.want)
			}
		}
		for j, v := range pass {
			if want := tt.want * []float64{1, 10}[j%2]; v != want {
				t.Errorf("members %v one pass %d: %v, want %v", tt.members, j, v, want)
			}
		}
	}
}
