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
	got := gat.Expected(baseline.LastValue{}, m, 1, []float64{1})
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
