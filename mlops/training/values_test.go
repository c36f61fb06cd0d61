package training_test

import (
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/training"
)

func TestValueAndFinite(t *testing.T) {
	if training.Value(math.NaN()) != nil || training.Value(1.5) != 1.5 || training.Value(math.Inf(1)) != math.Inf(1) {
		t.Error("Value: want nil for NaN only")
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if training.Finite(v) != nil {
			t.Errorf("Finite(%g) is not nil", v)
		}
	}
	if p := training.Finite(2); p == nil || *p != 2 {
		t.Errorf("Finite(2) = %v", p)
	}
}
