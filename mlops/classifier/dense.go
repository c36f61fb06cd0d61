package classifier

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/mallard/mallard/mlops/linalg"
)

// dense is y = x·W + b for W of in x out (row-major) followed by b.
type dense struct {
	in, outN int
	first    bool // no input gradient is needed
	x, y, dx []float64
}

func newDense(in shape, out int, first bool) *dense {
	return &dense{in: in.size(), outN: out, first: first}
}

func (d *dense) out() shape  { return shape{1, 1, d.outN} }
func (d *dense) params() int { return d.in*d.outN + d.outN }

func (d *dense) init(w []float64, rng *rand.Rand) { uniformInit(w, d.in, rng) }

func (d *dense) forward(w, x []float64, b *batch) []float64 {
	d.x = x
	d.y = grow(d.y, b.n*d.outN)
	W, bias := d.split(w)
	linalg.Gemm(blas.NoTrans, blas.NoTrans, 1, mat(b.n, d.in, x), W, 0, mat(b.n, d.outN, d.y))
	addBias(d.y, bias.Data)
	return d.y
}

func (d *dense) backward(w, g, dy []float64, b *batch) []float64 {
	gW, gb := d.split(g)
	linalg.Gemm(blas.Trans, blas.NoTrans, 1, mat(b.n, d.in, d.x), mat(b.n, d.outN, dy), 1, gW)
	addColumnSums(gb.Data[:d.outN], dy)
	if d.first {
		return nil
	}
	W, _ := d.split(w)
	d.dx = grow(d.dx, b.n*d.in)
	linalg.Gemm(blas.NoTrans, blas.Trans, 1, mat(b.n, d.outN, dy), W, 0, mat(b.n, d.in, d.dx))
	return d.dx
}

// split returns the weight matrix and the bias (as a 1 x out matrix) in w.
func (d *dense) split(w []float64) (blas64.General, blas64.General) {
	k := d.in * d.outN
	return mat(d.in, d.outN, w[:k]), mat(1, d.outN, w[k:k+d.outN])
}

// mat is the r x c row-major matrix over data.
func mat(r, c int, data []float64) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: data[:r*c]}
}
