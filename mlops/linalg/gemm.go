package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// gonum's blockSize and minParBlock: blas64.Gemm goes parallel when the
// result has at least parBlocks blocks of block x block.
const (
	block     = 64
	parBlocks = 4
)

// Tiles of a product: one block of rows by three of columns, under
// gonum's threshold for going parallel.
const (
	tileRows = block
	tileCols = 3 * block
)

// Gemm sets c to alpha·op(a)·op(b) + beta·c on the calling goroutine,
// with every element summed as blas64.Gemm sums it when it computes
// serially: in turn over the inner dimension, a term whose left factor
// times alpha is 0 left out, and for a product with b transposed one dot
// product over the whole inner dimension. The result does not depend on
// the tiling. For a large product blas64.Gemm itself sums otherwise (see
// GemmAsGonum).
func Gemm(tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) {
	gemm(tA, tB, alpha, a, b, beta, c, inner(a, tA))
}

// GemmAsGonum sets c to alpha·op(a)·op(b) + beta·c on the calling
// goroutine, equal to the bit to what blas64.Gemm computes for the same
// operands (and so to mat.Dense.Mul), also where gonum would compute it in
// parallel: there gonum sums a product with b transposed as one dot
// product per 64 of the inner dimension, added in turn, which GemmAsGonum
// does too.
func GemmAsGonum(tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) {
	step := inner(a, tA)
	if blocks(c.Rows)*blocks(c.Cols) >= parBlocks {
		step = block
	}
	gemm(tA, tB, alpha, a, b, beta, c, step)
}

// blocks is the number of gonum's blocks that cover d.
func blocks(d int) int { return (d + block - 1) / block }

// inner is the inner dimension of op(a)·op(b).
func inner(a blas64.General, t blas.Transpose) int {
	if t == blas.NoTrans {
		return a.Cols
	}
	return a.Rows
}

// gemm computes the product tile by tile, each tile in runs of step of
// the inner dimension (beta applied by the first run), as gonum's
// parallel path computes its blocks.
func gemm(tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General, step int) {
	k := inner(a, tA)
	if k == 0 {
		scale(beta, c)
		return
	}
	for i := 0; i < c.Rows; i += tileRows {
		rows := min(tileRows, c.Rows-i)
		for j := 0; j < c.Cols; j += tileCols {
			cols := min(tileCols, c.Cols-j)
			tile := blas64.General{Rows: rows, Cols: cols, Stride: c.Stride, Data: c.Data[i*c.Stride+j:]}
			tb := beta
			for l := 0; l < k; l += step {
				n := min(step, k-l)
				blas64.Gemm(tA, tB, alpha, opBlock(a, tA, i, rows, l, n), opBlock(b, flip(tB), j, cols, l, n), tb, tile)
				tb = 1
			}
		}
	}
}

// flip is the other transpose: op(b)'s columns are the rows of op(b)ᵀ.
func flip(t blas.Transpose) blas.Transpose {
	if t == blas.NoTrans {
		return blas.Trans
	}
	return blas.NoTrans
}

// opBlock returns the matrix whose op(.) under t is rows [i, i+m) and
// columns [l, l+n) of op(a).
func opBlock(a blas64.General, t blas.Transpose, i, m, l, n int) blas64.General {
	if t == blas.NoTrans {
		return blas64.General{Rows: m, Cols: n, Stride: a.Stride, Data: a.Data[i*a.Stride+l:]}
	}
	return blas64.General{Rows: n, Cols: m, Stride: a.Stride, Data: a.Data[l*a.Stride+i:]}
}

// scale sets c to beta·c as blas64.Gemm does: zeros for beta 0, whatever
// c held.
func scale(beta float64, c blas64.General) {
	for i := range c.Rows {
		row := c.Data[i*c.Stride : i*c.Stride+c.Cols]
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
}
