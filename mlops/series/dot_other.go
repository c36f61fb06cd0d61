//go:build !amd64 || noasm || gccgo || safe

package series

// dot is floats.Dot(x, y) bit for bit, inlinable: without gonum's
// assembly the products are added in order, each rounded first. len(y)
// must be at least len(x).
func dot(x, y []float64) float64 {
	var sum float64
	y = y[:len(x)]
	for i, v := range x {
		sum += float64(y[i] * v)
	}
	return sum
}

// dots writes into out[k] dot(rows[k*len(y):(k+1)*len(y)], y) for every k,
// in one call: the products of a block of windows with one window.
func dots(rows, y, out []float64) {
	win := len(y)
	for k := range out {
		out[k] = dot(rows[k*win:(k+1)*win], y)
	}
}
