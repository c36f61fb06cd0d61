package recommender

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// gemm sets c to alpha·op(a)·op(b) + beta·c on the calling goroutine
// alone. gonum's Gemm spreads a product of more than a few 64 x 64 blocks
// over every processor; a training worker calling it then takes all the
// cores, so that one worker kept 1.97 of two cores busy and two workers
// could not be faster than one. Here the product is cut into tiles of
// at most tileRows x tileCols, each under gonum's threshold for going
// parallel, so that workers := N uses N cores and no more. Each element
// of c is still one dot product over the whole inner dimension, so the
// result does not depend on the tiling.
func gemm(tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) {
	for i := 0; i < c.Rows; i += tileRows {
		rows := min(tileRows, c.Rows-i)
		for j := 0; j < c.Cols; j += tileCols {
			cols := min(tileCols, c.Cols-j)
			blas64.Gemm(tA, tB, alpha, opRows(a, tA, i, rows), opCols(b, tB, j, cols), beta,
				blas64.General{Rows: rows, Cols: cols, Stride: c.Stride, Data: c.Data[i*c.Stride+j:]})
		}
	}
}

// Tiles of gemm: gonum goes parallel from four 64 x 64 blocks of c.
const (
	tileRows = 64
	tileCols = 3 * 64
)

// opRows returns the matrix whose op(.) is rows [i, i+n) of op(a).
func opRows(a blas64.General, t blas.Transpose, i, n int) blas64.General {
	if t == blas.NoTrans {
		return blas64.General{Rows: n, Cols: a.Cols, Stride: a.Stride, Data: a.Data[i*a.Stride:]}
	}
	return blas64.General{Rows: a.Rows, Cols: n, Stride: a.Stride, Data: a.Data[i:]}
}

// opCols returns the matrix whose op(.) is columns [j, j+n) of op(b).
func opCols(b blas64.General, t blas.Transpose, j, n int) blas64.General {
	if t == blas.NoTrans {
		return blas64.General{Rows: b.Rows, Cols: n, Stride: b.Stride, Data: b.Data[j:]}
	}
	return blas64.General{Rows: n, Cols: b.Cols, Stride: b.Stride, Data: b.Data[j*b.Stride:]}
}
