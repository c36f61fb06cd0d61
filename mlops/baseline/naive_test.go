package baseline_test

import (
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// TestSeasonalNaive forecasts with season 3 from rows whose entity 0 is
// the row number and entity 1 its negative: the forecast of row origin+k
// is row origin-3+(k mod 3), so h = 7 steps repeat the last season twice
// and start it a third time.
func TestSeasonalNaive(t *testing.T) {
	m := series.Matrix{T: 9, N: 2, Values: make([]float64, 18)}
	for i := range m.Values {
		m.Values[i] = float64(i / 2)
		if i%2 == 1 {
			m.Values[i] = -m.Values[i]
		}
	}
	f := baseline.SeasonalNaive{Season: 3}
	tests := []struct {
		origin   int
		wantRows []int
	}{
		{6, []int{3, 4, 5, 3, 4, 5, 3}},
		{9, []int{6, 7, 8, 6}},
		{3, []int{0, 1}},
	}
	for _, tt := range tests {
		got := forecast(f, m, tt.origin, len(tt.wantRows))
		for k, r := range tt.wantRows {
			if want := m.Row(r); !slices.Equal(got[k], want) {
				t.Errorf("origin %d, step %d = %v, want row %d %v", tt.origin, k, got[k], r, want)
			}
		}
	}
	if got, want := predict(f, m, 7), m.Row(4); !slices.Equal(got, want) {
		t.Errorf("Predict(7) = %v, want row 4 %v", got, want)
	}
}

// TestDrift fits on rows 0..4 (targets 1..4): entity 0 runs 0 -> 8, a slope
// of 2, and entity 1 runs 5 -> 1, a slope of -1. Rows 5..7 are not
// training rows: they move the level of a later origin, not the slope.
func TestDrift(t *testing.T) {
	m := series.Matrix{T: 8, N: 2, Values: []float64{
		0, 5, 1, 5, 2, 5, 3, 5, 8, 1, // training rows 0..4
		10, 100, 20, 200, 30, 300,
	}}
	f, err := baseline.FitForecaster(baseline.KindDrift, m, []int{1, 2, 3, 4}, baseline.Options{Window: 1, Season: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.(*baseline.Drift).Slope; !slices.Equal(got, []float64{2, -1}) {
		t.Errorf("Slope = %v, want [2 -1]", got)
	}
	tests := []struct {
		origin int
		want   [][]float64
	}{
		{5, [][]float64{{10, 0}, {12, -1}}},               // from row 4, [8 1]
		{7, [][]float64{{22, 199}, {24, 198}}},            // from row 6, [20 200]
		{8, [][]float64{{32, 299}, {34, 298}, {36, 297}}}, // past the data
	}
	for _, tt := range tests {
		got := forecast(f, m, tt.origin, len(tt.want))
		for k := range tt.want {
			if !slices.Equal(got[k], tt.want[k]) {
				t.Errorf("origin %d, step %d = %v, want %v", tt.origin, k, got[k], tt.want[k])
			}
		}
	}
}

// TestMASEScale checks the scale by hand. Entity 0 is 1 3 2 5 4: its
// absolute changes are 2 1 3 1, a mean of 7/4, and its changes over two
// rows are 1 2 2, a mean of 5/3. Entity 1 is constant, a scale of zero,
// reported as NaN; with no row a season after another every scale is NaN.
func TestMASEScale(t *testing.T) {
	m := series.Matrix{T: 5, N: 2, Values: []float64{1, 7, 3, 7, 2, 7, 5, 7, 4, 7}}
	tests := []struct {
		rows, season int
		want         []float64
	}{
		{5, 1, []float64{1.75, math.NaN()}},
		{5, 2, []float64{5.0 / 3, math.NaN()}},
		{4, 1, []float64{2, math.NaN()}},
		{2, 2, []float64{math.NaN(), math.NaN()}},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, tt := range tests {
		if got := baseline.MASEScale(m, tt.rows, tt.season); !slices.EqualFunc(got, tt.want, same) {
			t.Errorf("MASEScale(%d rows, season %d) = %v, want %v", tt.rows, tt.season, got, tt.want)
		}
	}
}
