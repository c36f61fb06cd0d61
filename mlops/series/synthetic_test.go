package series_test

import (
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// TestSynthetic checks that the generator is seeded (the same matrix for
// the same seed, another for another), finite, and that its periods are
// factors of the result.
func TestSynthetic(t *testing.T) {
	a, b := series.Synthetic(20, 480, 1, 24), series.Synthetic(20, 480, 1, 24)
	if !slices.Equal(a.Values, b.Values) {
		t.Fatal("the same seed gave two matrices")
	}
	if c := series.Synthetic(20, 480, 2, 24); slices.Equal(a.Values, c.Values) {
		t.Fatal("two seeds gave one matrix")
	}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	if c := series.Synthetic(20, 480, 1); slices.Equal(a.Values, c.Values) {
		t.Fatal("a period changed nothing")
	}
}
