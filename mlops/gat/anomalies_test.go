package gat_test

import (
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// TestExpectedSpikeAndShift follows one series with the last value: a
// spike at row 5 is forecast past (row 6 expects the level before it, not
// the spike), and a level shift at row 10 is followed after its second row
// (row 12 expects the new level), where a seasonal or smoothing method
// would otherwise go on expecting the old one.
func TestExpectedSpikeAndShift(t *testing.T) {
	v := make([]float64, 16)
	v[5] = 9
	for r := 10; r < 16; r++ {
		v[r] = 5
	}
	m := series.Matrix{T: 16, N: 1, Values: v}
	got := gat.Expected(baseline.LastValue{}, m, 1, []float64{1}, gat.Units{})
	want := map[int]float64{5: 0, 6: 0, 10: 0, 11: 0, 12: 5, 15: 5}
	for row, w := range want {
		if e := got.At(row-1, 0); e != w {
			t.Errorf("row %d expected %v, want %v", row, e, w)
		}
	}
	if m.At(5, 0) != 9 {
		t.Error("Expected changed its input")
	}
}

// TestExpectedShiftInOwnUnits: a series whose season swings by 20 around
// 100 moves up by 50 at row 36, and a model sees it as its logarithm.
// Followed with the seasonal naive forecast, a shift made in the data's own
// units leaves the rows after it forecast exactly; made in the logarithm,
// it would stretch the season with the level, and the rows after it would
// be forecast wrong by several units.
func TestExpectedShiftInOwnUnits(t *testing.T) {
	const rows, at = 60, 36
	own := func(r int) float64 {
		x := 100 + 20*math.Sin(2*math.Pi*float64(r)/12+0.5)
		if r >= at {
			x += 50
		}
		return x
	}
	v := make([]float64, rows)
	for r := range v {
		v[r] = math.Log(own(r))
	}
	m := series.Matrix{T: rows, N: 1, Values: v}
	units := gat.Units{Own: func(_ int, y float64) float64 { return math.Exp(y) }, Scaled: func(_ int, x float64) float64 { return math.Log(x) }}
	worst := func(u gat.Units) float64 {
		got := gat.Expected(baseline.SeasonalNaive{Season: 12}, m, 12, []float64{0.05}, u)
		w := 0.0
		for r := at + 2; r < rows; r++ {
			w = max(w, math.Abs(math.Exp(got.At(r-12, 0))-own(r)))
		}
		return w
	}
	if w := worst(units); w > 1e-9 {
		t.Errorf("shift in the data's own units: the rows after it are forecast up to %.3g off", w)
	}
	if w := worst(gat.Units{}); w < 1 {
		t.Errorf("shift in the logarithm: the rows after it are forecast at most %.3g off; the test no longer tells the two apart", w)
	}
}

// TestEntityHalfWidths checks the normalised widths by hand: entity 1's
// errors are entity 0's times 10, so its width is 10 times as wide, and
// each is the pooled quantile of the scaled errors times its scale.
func TestEntityHalfWidths(t *testing.T) {
	e0 := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	e1 := make([]float64, len(e0))
	for i, v := range e0 {
		e1[i] = 10 * v
	}
	w := gat.EntityHalfWidths([][][]float64{{e0, e1}, {nil, nil}}, 0.5)
	// Scales 5 and 50; scaled errors 0.2..1.8 twice; the ceil(19*0.5) = 10th
	// smallest of 18 is 1.0.
	if math.Abs(w[0][0]-5) > 1e-12 || math.Abs(w[0][1]-50) > 1e-12 {
		t.Errorf("step 1 widths %v, want [5 50]", w[0])
	}
	if math.Abs(w[1][0]-5*math.Sqrt2) > 1e-12 || math.Abs(w[1][1]-50*math.Sqrt2) > 1e-12 {
		t.Errorf("step 2 (no errors) widths %v, want step 1's times sqrt 2", w[1])
	}
}
