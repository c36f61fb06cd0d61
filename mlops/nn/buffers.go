package nn

import "gonum.org/v1/gonum/mat"

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

// axpy adds a*x to dst elementwise, as floats.AddScaled does and with the
// same rounding, without a call per slice: attention sums rows of a few
// columns, often one, where the call would cost more than the arithmetic.
func axpy(dst []float64, a float64, x []float64) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] += a * v
	}
}

// dot is the dot product of x and y summed as gonum's floats.Dot sums on
// amd64, so that results do not change with the call: four partial sums
// over i mod 4, the tail added to the first, then (s0+s2) + (s1+s3).
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s2) + (s1 + s3)
}

// The GAT layer's matrix products below are gonum's (blas/gonum's Dgemm
// with alpha 1 and beta 0, as mat.Dense.Mul calls it) to the bit, without
// its goroutines: at a few hundred nodes gonum splits a product into
// 64-row blocks, one goroutine each, which costs a sample more than the
// arithmetic and, with a worker per core, only competes with the other
// workers. Each element is summed in gonum's order: over the inner index
// in turn, a term whose left factor is 0 left out, and for a product with
// b transposed, one dot product per 64 of the inner index when gonum
// splits the product (see gemmSplits).
const (
	gemmBlock     = 64 // gonum's blockSize
	gemmParBlocks = 4  // gonum's minParBlock
)

// gemmSplits reports whether gonum computes an m x n product in blocks.
func gemmSplits(m, n int) bool {
	blocks := func(d int) int { return (d + gemmBlock - 1) / gemmBlock }
	return blocks(m)*blocks(n) >= gemmParBlocks
}

// mulInto returns a b in c's storage (see reusedDense).
func mulInto(c, a, b *mat.Dense) *mat.Dense {
	m, k := a.Dims()
	_, n := b.Dims()
	c = reusedDense(c, m, n)
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	for i := range m {
		crow := cr.Data[i*cr.Stride : i*cr.Stride+n]
		for l, v := range ar.Data[i*ar.Stride : i*ar.Stride+k] {
			if v != 0 {
				axpy(crow, v, br.Data[l*br.Stride:l*br.Stride+n])
			}
		}
	}
	return c
}

// mulTransAInto returns a^T b in c's storage.
func mulTransAInto(c, a, b *mat.Dense) *mat.Dense {
	k, m := a.Dims()
	_, n := b.Dims()
	c = reusedDense(c, m, n)
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	for l := range k {
		brow := br.Data[l*br.Stride : l*br.Stride+n]
		for i, v := range ar.Data[l*ar.Stride : l*ar.Stride+m] {
			if v != 0 {
				axpy(cr.Data[i*cr.Stride:i*cr.Stride+n], v, brow)
			}
		}
	}
	return c
}

// mulTransBInto returns a b^T in c's storage.
func mulTransBInto(c, a, b *mat.Dense) *mat.Dense {
	m, k := a.Dims()
	n, _ := b.Dims()
	c = reusedDense(c, m, n)
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	step := k
	if gemmSplits(m, n) {
		step = gemmBlock
	}
	for i := range m {
		arow, crow := ar.Data[i*ar.Stride:i*ar.Stride+k], cr.Data[i*cr.Stride:i*cr.Stride+n]
		for j := range n {
			brow := br.Data[j*br.Stride : j*br.Stride+k]
			for from := 0; from < k; from += step {
				to := min(from+step, k)
				crow[j] += dot(arow[from:to], brow[from:to])
			}
		}
	}
	return c
}
