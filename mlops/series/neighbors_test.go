package series_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// TestWindowsMatchCorrelation checks the graph a Windows gives, in O(N)
// memory, against the dense one: Corr is Correlation's matrix bit for bit
// and Strongest picks Edges's sources, including among the ties a constant
// window and duplicated entities make.
func TestWindowsMatchCorrelation(t *testing.T) {
	const n, rows, window, at = 60, 40, 8, 33
	r := rand.New(rand.NewPCG(9, 2))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for i := range m.Values {
		m.Values[i] = r.NormFloat64()
	}
	for tr := range rows {
		m.Values[tr*n+5] = 1                  // constant: correlation 0 with all
		m.Values[tr*n+9] = m.Values[tr*n+3]   // entity 9 duplicates 3
		m.Values[tr*n+12] = -m.Values[tr*n+3] // and 12 mirrors it
	}
	corr := make([]float64, n*n)
	series.Correlation(m, at, window, corr)
	var w series.Windows
	w.Set(m, at, window)
	for i := range n {
		for j := range n {
			if got := w.Corr(i, j); got != corr[i*n+j] {
				t.Fatalf("Corr(%d, %d) = %v, Correlation %v", i, j, got, corr[i*n+j])
			}
		}
	}
	for _, keep := range []int{1, 3, 10, n - 2, n - 1, n} {
		src, _, _ := series.Edges(corr, n, keep)
		var got []int32
		for j := range n {
			got = w.Strongest(got, j, keep)
		}
		want := make([]int32, len(src))
		for e, s := range src {
			want[e] = int32(s)
		}
		if !slices.Equal(got, want) {
			t.Errorf("keep %d: Strongest differs from Edges", keep)
		}
	}
}
