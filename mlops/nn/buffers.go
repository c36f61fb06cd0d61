package nn

import (
	"github.com/mallard/mallard/mlops/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// The layers keep what Backward needs and their scratch in buffers that
// they reuse from call to call, so that training allocates once per layer
// rather than once per sample. A layer never reuses a matrix it returned:
// the caller owns those, except the outputs of GATConv's ForwardOn and
// BackwardOn, which say so.

// resized returns buf with length n, reallocated only when its capacity
// is short. Its contents are unspecified.
func resized(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// cleared returns buf with length n and every element zero.
func cleared(buf []float64, n int) []float64 {
	buf = resized(buf, n)
	clear(buf)
	return buf
}

// resizedInts is resized for ints.
func resizedInts(buf []int, n int) []int {
	if cap(buf) < n {
		return make([]int, n)
	}
	return buf[:n]
}

// reusedDense returns an r x c zero matrix, reusing m's storage when m is
// not nil and holds enough.
func reusedDense(m *mat.Dense, r, c int) *mat.Dense {
	if m == nil {
		return mat.NewDense(r, c, nil)
	}
	m.Reset()
	m.ReuseAs(r, c)
	return m
}

// copiedDense returns a copy of src, reusing dst's storage as reusedDense does.
func copiedDense(dst, src *mat.Dense) *mat.Dense {
	r, c := src.Dims()
	dst = reusedDense(dst, r, c)
	dst.Copy(src)
	return dst
}

// The GAT layer's matrix products are linalg.GemmAsGonum's: gonum's
// mat.Dense.Mul to the bit, on the calling goroutine alone.

// mulInto returns a b in c's storage (see reusedDense).
func mulInto(c, a, b *mat.Dense) *mat.Dense {
	m, _ := a.Dims()
	_, n := b.Dims()
	return product(reusedDense(c, m, n), blas.NoTrans, a, blas.NoTrans, b)
}

// mulTransAInto returns a^T b in c's storage.
func mulTransAInto(c, a, b *mat.Dense) *mat.Dense {
	_, m := a.Dims()
	_, n := b.Dims()
	return product(reusedDense(c, m, n), blas.Trans, a, blas.NoTrans, b)
}

// mulTransBInto returns a b^T in c's storage.
func mulTransBInto(c, a, b *mat.Dense) *mat.Dense {
	m, _ := a.Dims()
	n, _ := b.Dims()
	return product(reusedDense(c, m, n), blas.NoTrans, a, blas.Trans, b)
}

// product sets c, already shaped, to op(a) op(b) and returns it.
func product(c *mat.Dense, tA blas.Transpose, a *mat.Dense, tB blas.Transpose, b *mat.Dense) *mat.Dense {
	linalg.GemmAsGonum(tA, tB, 1, a.RawMatrix(), b.RawMatrix(), 0, c.RawMatrix())
	return c
}
