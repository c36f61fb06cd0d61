package classifier_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

// chunked is a table as a Source that is not held in memory as a whole,
// which FitSource and PredictSource read a chunk of rows at a time; it
// counts the rows asked for at once.
type chunked struct {
	src     classifier.Source
	largest *int
}

func (c chunked) Len() int { return c.src.Len() }

func (c chunked) Table(idx []int) (*classifier.Table, error) {
	*c.largest = max(*c.largest, len(idx))
	return c.src.Table(idx)
}

// TestFitSourceEqualsFit trains on a table in memory and on the same
// rows read a batch at a time (numeric and text columns, a missing
// value, 2 workers, dropout): the weights, the preprocessing and the
// predictions are the same to the bit, and no read asks for more than a
// validation chunk of rows.
func TestFitSourceEqualsFit(t *testing.T) {
	tab, target := rings(3, 700)
	tab.Numeric[0].Values[5] = math.NaN()
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.Workers, opts.Dropout, opts.Hidden = 4, 2, 0.2, []int{16}
	want, err := classifier.Fit(context.Background(), opts, tab, target, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := classifier.InMemory(tab)
	if err != nil {
		t.Fatal(err)
	}
	largest := 0
	src := chunked{src: mem, largest: &largest}
	got, err := classifier.FitSource(context.Background(), opts, src, target, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Weights, want.Weights) {
		t.Errorf("weights differ from Fit's")
	}
	if !slices.Equal(got.Prep.Numeric, want.Prep.Numeric) || !slices.EqualFunc(got.Prep.Categorical, want.Prep.Categorical,
		func(a, b classifier.CategoryLevels) bool { return a.Name == b.Name && slices.Equal(a.Levels, b.Levels) }) {
		t.Errorf("preprocessing %+v, want %+v", got.Prep, want.Prep)
	}
	p1, err := want.Predict(tab)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := want.PredictSource(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(p1, p2, slices.Equal[[]float64]) {
		t.Errorf("PredictSource differs from Predict")
	}
	if largest > 1024 || largest == 0 {
		t.Errorf("a read of %d rows, want 1 to 1024 (a chunk)", largest)
	}
}
