package nn

import "gonum.org/v1/gonum/mat"

// The layers keep what Backward needs and their scratch in buffers that
// they reuse from call to call, so that training allocates once per layer
// rather than once per sample. A layer never reuses a matrix it returned:
// the caller owns those.

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
