package linalg

// Axpy adds a·x to dst elementwise, with the rounding of gonum's
// floats.AddScaled, in Go so that it inlines: attention sums rows of a few
// columns, often one, where a call would cost more than the arithmetic.
// dst must be at least as long as x.
func Axpy(dst []float64, a float64, x []float64) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] += a * v
	}
}

// Dot is the dot product of x and y summed as gonum's floats.Dot sums on
// amd64, so that a result does not change with the function that computed
// it: four partial sums over i mod 4, the tail added to the first, then
// (s0+s2) + (s1+s3). y must be at least as long as x.
func Dot(x, y []float64) float64 {
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
