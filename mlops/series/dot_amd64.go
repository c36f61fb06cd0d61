//go:build !noasm && !gccgo && !safe

package series

// dot is floats.Dot(x, y) bit for bit, inlinable: gonum's amd64 kernel
// keeps four partial sums, of the elements at 0, 1, 2 and 3 modulo 4 up to
// the last multiple of 4, adds the remaining one to three elements to the
// first, and returns (s0 + s2) + (s1 + s3). Each product is rounded
// before it is added, as the kernel's MULPD then ADDPD do. len(y) must be
// at least len(x).
func dot(x, y []float64) float64 {
	var s0, s1, s2, s3 float64
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i] * y[i])
		s1 += float64(x[i+1] * y[i+1])
		s2 += float64(x[i+2] * y[i+2])
		s3 += float64(x[i+3] * y[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i] * y[i])
	}
	return (s1 + s3) + (s0 + s2)
}

// dots writes into out[k] dot(rows[k*len(y):(k+1)*len(y)], y) for every k,
// in one call: the products of a block of windows with one window.
func dots(rows, y, out []float64) {
	win := len(y)
	for k := range out {
		x := rows[k*win : (k+1)*win : (k+1)*win]
		var s0, s1, s2, s3 float64
		i := 0
		for ; i+4 <= win; i += 4 {
			s0 += float64(x[i] * y[i])
			s1 += float64(x[i+1] * y[i+1])
			s2 += float64(x[i+2] * y[i+2])
			s3 += float64(x[i+3] * y[i+3])
		}
		for ; i < win; i++ {
			s0 += float64(x[i] * y[i])
		}
		out[k] = (s1 + s3) + (s0 + s2)
	}
}
