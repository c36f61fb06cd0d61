package baseline

import "math"

// The bounds of R's forecast::ets ("usual" bounds) on the smoothing
// parameters and the damping.
const (
	etsLower    = 1e-4
	etsUpper    = 0.9999
	etsPhiLower = 0.8
	etsPhiUpper = 0.98
)

// usual reports whether p lies within R's usual bounds for the form:
// alpha, beta and gamma in [1e-4, 0.9999], beta <= alpha,
// gamma <= 1 - alpha and phi in [0.8, 0.98] where the form has them.
func (f etsForm) usual(p ETSParams) bool {
	if p.Alpha < etsLower || p.Alpha > etsUpper {
		return false
	}
	if f.trend && (p.Beta < etsLower || p.Beta > p.Alpha || p.Beta > etsUpper) {
		return false
	}
	if f.damped && (p.Phi < etsPhiLower || p.Phi > etsPhiUpper) {
		return false
	}
	if f.season != 'N' && (p.Gamma < etsLower || p.Gamma > 1-p.Alpha || p.Gamma > etsUpper) {
		return false
	}
	return true
}

// admissible reports whether p lies in the admissible region of the form
// with season m, where the model forecasts as a stable process: the
// conditions of Hyndman et al. (2008, ch. 10) that R's forecast::ets
// checks, the last of them that every root of its characteristic
// polynomial lies within modulus 1 + 1e-10.
func (f etsForm) admissible(p ETSParams, m int) bool {
	alpha, beta, gamma, phi := p.Alpha, p.Beta, p.Gamma, p.Phi
	if !f.trend {
		beta = 0
	}
	if !f.damped {
		phi = 1
	}
	if phi < 0 || phi > 1+1e-8 {
		return false
	}
	if f.season == 'N' {
		if alpha < 1-1/phi || alpha > 1+1/phi {
			return false
		}
		return !f.trend || (beta >= alpha*(phi-1) && beta <= (1+phi)*(2-alpha))
	}
	if m <= 1 {
		return true
	}
	fm := float64(m)
	if gamma < max(1-1/phi-alpha, 0) || gamma > 1+1/phi-alpha ||
		alpha < 1-1/phi-gamma*(1-fm+phi+phi*fm)/(2*phi*fm) ||
		beta < -(1-phi)*(gamma/fm+alpha) {
		return false
	}
	var c [26]float64 // m <= 24: degree m+1
	c[0] = phi * (1 - alpha - gamma)
	c[1] = alpha + beta - alpha*phi + gamma - 1
	for i := 2; i < m; i++ {
		c[i] = alpha + beta - alpha*phi
	}
	c[m] = alpha + beta - phi
	c[m+1] = 1
	return rootsWithin(c[:m+2], 1+1e-10)
}

// rootsWithin reports whether every root of the polynomial
// c[0] + c[1] z + ... + c[d] z^d, c[d] != 0, has modulus below r, by the
// Schur-Cohn test on the polynomial of z*r: its roots lie in the unit
// disc exactly when |c0| < |cd| and the same holds, degree by degree, for
// (cd p(z) - c0 p*(z))/z, p* being p with its coefficients reversed.
func rootsWithin(c []float64, r float64) bool {
	var bufA, bufB [26]float64
	a, b := bufA[:len(c)], bufB[:len(c)]
	if len(c) > len(bufA) {
		a, b = make([]float64, len(c)), make([]float64, len(c))
	}
	scale := 1.0
	for i, v := range c {
		a[i] = v * scale
		scale *= r
	}
	for d := len(a) - 1; d > 0; d-- {
		a0, ad := a[0], a[d]
		if math.Abs(a0) >= math.Abs(ad) {
			return false
		}
		for i := range d {
			b[i] = (ad*a[i+1] - a0*a[d-1-i]) / ad
		}
		a, b = b[:d], a
	}
	return true
}
