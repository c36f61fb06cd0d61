package series

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Features writes the node features of the sample predicting row t into
// dst: row n of dst is entity n's window, and column k holds its value at
// time t-window+k, so the last column is the most recent value.
//
// If dst is empty it is resized to m.N x window; otherwise it must already
// be m.N x window. Features panics if dst has another shape or rows
// t-window..t-1 do not all exist; t may be m.T, to forecast past the data.
func Features(m Matrix, t, window int, dst *mat.Dense) {
	checkWindow(m, t, window)
	if dst.IsEmpty() {
		dst.ReuseAs(m.N, window)
	}
	if r, c := dst.Dims(); r != m.N || c != window {
		panic(fmt.Sprintf("series: features need a %d x %d matrix, got %d x %d", m.N, window, r, c))
	}
	for k := range window {
		for n, v := range m.Row(t - window + k) {
			dst.Set(n, k, v)
		}
	}
}
