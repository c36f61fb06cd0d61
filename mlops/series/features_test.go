package series_test

import (
	"testing"

	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

func TestFeatures(t *testing.T) {
	tests := []struct {
		name   string
		t      int
		window int
		want   []float64
	}{
		{"window 2 at row 3", 3, 2, []float64{100, 200, 101, 201, 102, 202}},
		{"window 1 at row 1", 1, 1, []float64{0, 1, 2}},
		{"past the last row", 4, 3, []float64{100, 200, 300, 101, 201, 301, 102, 202, 302}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dst mat.Dense
			series.Features(ramp(4, 3), tt.t, tt.window, &dst)
			want := mat.NewDense(3, tt.window, tt.want)
			if !mat.Equal(&dst, want) {
				t.Errorf("Features =\n%v\nwant\n%v", mat.Formatted(&dst), mat.Formatted(want))
			}
		})
	}
}

func TestFeaturesReusesDst(t *testing.T) {
	dst := mat.NewDense(3, 2, nil)
	series.Features(ramp(4, 3), 2, 2, dst)
	if got := dst.At(2, 1); got != 102 {
		t.Errorf("dst(2, 1) = %v, want 102", got)
	}
}

func TestFeaturesPanics(t *testing.T) {
	tests := []struct {
		name   string
		t      int
		window int
		dst    *mat.Dense
	}{
		{"wrong shape", 2, 2, mat.NewDense(2, 2, nil)},
		{"window before row 0", 1, 2, &mat.Dense{}},
		{"beyond the data", 5, 2, &mat.Dense{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Features did not panic")
				}
			}()
			series.Features(ramp(4, 3), tt.t, tt.window, tt.dst)
		})
	}
}
