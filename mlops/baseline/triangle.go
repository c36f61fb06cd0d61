package baseline

import (
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// blockRows is how many rows a triangle buffers before folding them in.
const blockRows = 1024

// triangle reduces a tall matrix with p columns, fed one row at a time, to
// the p x p upper triangular factor R of its QR decomposition. It keeps R
// in the first p rows of a buffer and, when blockRows more rows have
// arrived below it, replaces R with the triangular factor of the stacked
// [R; rows]. R^T R then equals A^T A for the rows A seen so far, and for an
// augmented matrix [X y] the least-squares problems min |Xb - y| and
// min |R_x b - r_y| have the same solutions, found without ever forming
// A^T A and squaring its condition number.
type triangle struct {
	buf  *mat.Dense
	p    int
	rows int // rows of buf in use, R included
	tau  []float64
	work []float64
}

// newTriangle returns a triangle for rows of p values; its R starts at zero.
func newTriangle(p int) *triangle {
	buf := mat.NewDense(p+blockRows, p, nil)
	work := []float64{0}
	lapack64.Geqrf(buf.RawMatrix(), make([]float64, p), work, -1)
	return &triangle{
		buf:  buf,
		p:    p,
		rows: p,
		tau:  make([]float64, p),
		work: make([]float64, int(work[0])),
	}
}

// next returns the row to fill with the next row of the matrix. The slice
// is valid until the following call to next or r.
func (tr *triangle) next() []float64 {
	if tr.rows == tr.p+blockRows {
		tr.fold()
	}
	tr.rows++
	return tr.buf.RawRowView(tr.rows - 1)
}

// r folds in the buffered rows and returns R. It aliases the triangle's
// buffer.
func (tr *triangle) r() *mat.Dense {
	if tr.rows > tr.p {
		tr.fold()
	}
	return tr.buf.Slice(0, tr.p, 0, tr.p).(*mat.Dense)
}

// fold factorizes the buffered rows in place, keeps their R in the first p
// rows and empties the rows below.
func (tr *triangle) fold() {
	a := tr.buf.Slice(0, tr.rows, 0, tr.p).(*mat.Dense)
	lapack64.Geqrf(a.RawMatrix(), tr.tau, tr.work, len(tr.work))
	for i := 1; i < tr.p; i++ {
		clear(tr.buf.RawRowView(i)[:i])
	}
	tr.rows = tr.p
}
