package series_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/stat"
)

// column returns entity n's values in rows lo..hi-1.
func column(m series.Matrix, n, lo, hi int) []float64 {
	var xs []float64
	for t := lo; t < hi; t++ {
		xs = append(xs, m.At(t, n))
	}
	return xs
}

func TestCorrelationMatchesStat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	const rows, n, window, at = 30, 6, 12, 25
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = 1e3 + r.NormFloat64()
	}
	corr := make([]float64, n*n)
	series.Correlation(m, at, window, corr)
	for i := range n {
		for j := range n {
			want := stat.Correlation(column(m, i, at-window, at), column(m, j, at-window, at), nil)
			if got := corr[i*n+j]; math.Abs(got-want) > 1e-12 {
				t.Errorf("corr[%d][%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}

func TestCorrelationHandCases(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		values []float64
		window int
		want   []float64
	}{
		{
			name: "perfect and opposite",
			n:    3, window: 3,
			values: []float64{1, 2, 9, 2, 4, 6, 3, 6, 3},
			want:   []float64{1, 1, -1, 1, 1, -1, -1, -1, 1},
		},
		{
			name: "constant window",
			n:    3, window: 3,
			values: []float64{0.1, 1, 5, 0.1, 2, 5, 0.1, 4, 5},
			want:   []float64{1, 0, 0, 0, 1, 0, 0, 0, 1},
		},
		{
			name: "window of one row",
			n:    2, window: 1,
			values: []float64{3, 4},
			want:   []float64{1, 0, 0, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := series.Matrix{T: len(tt.values) / tt.n, N: tt.n, Values: tt.values}
			got := make([]float64, tt.n*tt.n)
			series.Correlation(m, tt.window, tt.window, got)
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-15 {
					t.Errorf("Correlation = %v, want %v", got, tt.want)
					break
				}
			}
		})
	}
}
