package classifier

import (
	"math"
	"testing"
)

func TestPrepFromTrainingRows(t *testing.T) {
	tab := &Table{
		Numeric:     []NumericColumn{{Name: "n", Values: []float64{1, 3, math.NaN(), 100}}},
		Categorical: []CategoricalColumn{{Name: "c", Values: []string{"y", "x", "y", "z"}}},
	}
	// Row 3 is a validation row: it changes neither the mean, the
	// standard deviation nor the categories.
	p, err := fitPrep(tab, []int{0, 1, 2}, false)
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Numeric[0]; s.Mean != 2 || s.Std != 1 {
		t.Errorf("stats %+v, want mean 2 and std 1", s)
	}
	x, err := p.features(tab)
	if err != nil {
		t.Fatal(err)
	}
	// Columns: n standardised, then one-hot x, y ("z" is unseen).
	want := []float64{-1, 0, 1, 1, 1, 0, 0, 0, 1, 98, 0, 0}
	assertValues(t, "features", x, want)
}

func TestPrepImages(t *testing.T) {
	// Two channels of 1 x 2 pixels, channel first, become channel-last
	// and scaled by the largest training pixel, clipped to [0, 1].
	tab := &Table{Image: &ImageColumn{Name: "img", Channels: 2, Height: 1, Width: 2,
		Pixels: [][]float64{{0, 100, 200, 50}, {300, -5, 0, 0}}}}
	p, err := fitPrep(tab, []int{0}, false)
	if err != nil {
		t.Fatal(err)
	}
	x, err := p.features(tab)
	if err != nil {
		t.Fatal(err)
	}
	assertValues(t, "pixels", x, []float64{0, 1, 0.5, 0.25, 1, 0, 0, 0})
	if in := p.input(); in != (shape{1, 2, 2}) {
		t.Errorf("input shape %+v", in)
	}
	// Raw pixels are transposed but neither scaled nor clipped.
	if p, err = fitPrep(tab, []int{0}, true); err != nil {
		t.Fatal(err)
	}
	if x, err = p.features(tab); err != nil {
		t.Fatal(err)
	}
	assertValues(t, "raw pixels", x, []float64{0, 200, 100, 50, 300, 0, -5, 0})
}

func TestBalancedWeights(t *testing.T) {
	// Three rows of class 0, one of class 1, none of class 2: each
	// present class weighs n/k in total.
	assertValues(t, "weights", balancedWeights([]int{0, 0, 0, 1}, 3), []float64{4.0 / 9, 4.0 / 3, 0})
}
