package series_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// ramp returns a rows x n matrix whose value at (t, e) is 100*t + e.
func ramp(rows, n int) series.Matrix {
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for t := range rows {
		for e := range n {
			m.Values[t*n+e] = float64(100*t + e)
		}
	}
	return m
}

// span returns lo, lo+1, ..., hi.
func span(lo, hi int) []int {
	var s []int
	for t := lo; t <= hi; t++ {
		s = append(s, t)
	}
	return s
}

func TestMatrixAccess(t *testing.T) {
	m := ramp(3, 2)
	if got := m.At(2, 1); got != 201 {
		t.Errorf("At(2, 1) = %v, want 201", got)
	}
	if got := m.Row(1); !slices.Equal(got, []float64{100, 101}) {
		t.Errorf("Row(1) = %v, want [100 101]", got)
	}
	if err := m.Validate(); err != nil {
		t.Errorf("Validate() = %v, want nil", err)
	}
	bad := series.Matrix{T: 3, N: 2, Values: make([]float64, 5)}
	if err := bad.Validate(); !errors.Is(err, series.ErrShape) {
		t.Errorf("Validate() of 5 values for 3 x 2 = %v, want ErrShape", err)
	}
}

func TestSamples(t *testing.T) {
	tests := []struct {
		name   string
		rows   int
		window int
		want   []int
	}{
		{"window 1", 4, 1, []int{1, 2, 3}},
		{"window 3", 5, 3, []int{3, 4}},
		{"window fills matrix", 3, 3, nil},
		{"window zero", 3, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := series.Samples(ramp(tt.rows, 2), tt.window); !slices.Equal(got, tt.want) {
				t.Errorf("Samples = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name      string
		m         series.Matrix
		window    int
		fraction  float64
		wantTrain []int
		wantTest  []int
		wantErr   error
	}{
		{"122 rows window 4", ramp(122, 3), 4, 0.7, span(4, 84), span(85, 121), nil},
		{"fraction rounding", ramp(100, 1), 2, 0.29, span(2, 28), span(29, 99), nil},
		{"smallest matrix", ramp(3, 1), 1, 0.7, []int{1}, []int{2}, nil},
		{"test looks back into training", ramp(10, 1), 6, 0.7, []int{6}, span(7, 9), nil},
		{"bad shape", series.Matrix{T: 4, N: 2, Values: make([]float64, 7)}, 1, 0.5, nil, nil, series.ErrShape},
		{"window zero", ramp(10, 1), 0, 0.5, nil, nil, series.ErrWindow},
		{"too short", ramp(5, 1), 4, 0.5, nil, nil, series.ErrTooShort},
		{"fraction zero", ramp(10, 1), 1, 0, nil, nil, series.ErrFraction},
		{"fraction one", ramp(10, 1), 1, 1, nil, nil, series.ErrFraction},
		{"no training sample", ramp(10, 1), 3, 0.3, nil, nil, series.ErrEmptySplit},
		{"no test row", ramp(10, 1), 3, 0.99999999999, nil, nil, series.ErrEmptySplit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			train, test, err := series.Split(tt.m, tt.window, tt.fraction)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Split error = %v, want %v", err, tt.wantErr)
			}
			if !slices.Equal(train, tt.wantTrain) || !slices.Equal(test, tt.wantTest) {
				t.Errorf("Split = %v, %v, want %v, %v", train, test, tt.wantTrain, tt.wantTest)
			}
			if err == nil && !slices.Equal(append(train, test...), series.Samples(tt.m, tt.window)) {
				t.Errorf("train and test together are not Samples")
			}
		})
	}
}

func TestCheckSamples(t *testing.T) {
	tests := []struct {
		name    string
		window  int
		samples []int
		wantErr error
	}{
		{"all valid", 2, []int{2, 5, 9}, nil},
		{"none", 2, nil, nil},
		{"target inside first window", 2, []int{1}, series.ErrSampleRange},
		{"target past last row", 2, []int{10}, series.ErrSampleRange},
		{"window zero", 0, []int{3}, series.ErrWindow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := series.CheckSamples(ramp(10, 2), tt.window, tt.samples); !errors.Is(err, tt.wantErr) {
				t.Errorf("CheckSamples = %v, want %v", err, tt.wantErr)
			}
		})
	}
}
