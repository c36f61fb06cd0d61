package scale

import "math"

// Moments holds the running count, mean and sum of squared deviations of a
// set of values, enough to give their mean and variance and to combine sets
// accumulated separately. The zero Moments describes the empty set.
//
// Moments does no filtering: callers accumulating training values skip NaN
// and ±Inf (see Finite) before calling Add, since one of them makes the mean
// and M2 NaN or infinite for good.
type Moments struct {
	// N is the number of values.
	N int64
	// Mean is the mean of the values, 0 for the empty set.
	Mean float64
	// M2 is the sum of squared deviations of the values from Mean.
	M2 float64
}

// Add accumulates x with Welford's update, which stays accurate when the
// values are large compared with their spread.
func (m *Moments) Add(x float64) {
	m.N++
	delta := x - m.Mean
	m.Mean += delta / float64(m.N)
	m.M2 += delta * (x - m.Mean)
}

// Merge returns the moments of the union of the sets m and o describe,
// using the pairwise formula of Chan, Golub and LeVeque. Merging with an
// empty set returns the other operand unchanged.
func (m Moments) Merge(o Moments) Moments {
	switch {
	case o.N == 0:
		return m
	case m.N == 0:
		return o
	}
	n := m.N + o.N
	na, nb, nn := float64(m.N), float64(o.N), float64(n)
	delta := o.Mean - m.Mean
	return Moments{
		N:    n,
		Mean: m.Mean + delta*(nb/nn),
		M2:   m.M2 + o.M2 + delta*delta*(na*nb/nn),
	}
}

// Variance returns the population variance M2/N, or 0 for the empty set.
func (m Moments) Variance() float64 {
	if m.N == 0 {
		return 0
	}
	return m.M2 / float64(m.N)
}

// Std returns the population standard deviation sqrt(M2/N), or 0 for the
// empty set.
func (m Moments) Std() float64 {
	return math.Sqrt(m.Variance())
}

// Finite reports whether x is neither NaN nor ±Inf, that is whether it may
// be passed to Moments.Add.
func Finite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}
