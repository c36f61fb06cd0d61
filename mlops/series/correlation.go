package series

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Correlation writes into dst the Pearson correlation between the windows
// of every pair of entities over rows t-window..t-1, as an m.N x m.N
// row-major matrix: dst[i*m.N+j] is the correlation of entities i and j.
// The result is symmetric, lies in [-1, 1] and has ones on the diagonal.
//
// A constant window has no defined correlation; Correlation sets every
// correlation of a constant entity with another entity to 0, meaning "no
// linear relation", and keeps 1 on the diagonal. A window is constant when
// all its values are exactly equal, which makes every window of one row
// constant. The values must be finite.
//
// Correlation panics if len(dst) != m.N*m.N or rows t-window..t-1 do not
// all exist; t may be m.T.
func Correlation(m Matrix, t, window int, dst []float64) {
	checkWindow(m, t, window)
	n := m.N
	if len(dst) != n*n {
		panic(fmt.Sprintf("series: correlation of %d entities needs %d values, got %d", n, n*n, len(dst)))
	}
	if n == 0 {
		return
	}
	z := mat.NewDense(n, window, nil)
	standardize(m, t, window, z.RawMatrix().Data)
	mat.NewDense(n, n, dst).Mul(z, z.T())
	for i := range n {
		for j := range n {
			dst[i*n+j] = max(-1, min(1, dst[i*n+j]))
		}
		dst[i*n+i] = 1
	}
}

// standardize writes into z, an m.N x window row-major matrix, every
// entity's window centred on its mean and scaled to unit Euclidean norm,
// so that the dot product of two rows is their Pearson correlation. A
// constant window gives a zero row. Values are first taken relative to the
// window's first value, which makes a constant window exactly zero rather
// than rounding noise.
func standardize(m Matrix, t, window int, z []float64) {
	for n := range m.N {
		row := z[n*window : (n+1)*window]
		first := m.At(t-window, n)
		for k := range row {
			row[k] = m.At(t-window+k, n) - first
		}
		floats.AddConst(-floats.Sum(row)/float64(window), row)
		if ss := floats.Dot(row, row); ss > 0 {
			floats.Scale(1/math.Sqrt(ss), row)
		}
	}
}
