package baseline

import (
	"math"
	"math/cmplx"
)

// The polynomials of an ARIMA model are kept as their coefficients after
// the constant 1: an autoregression phi is 1 - phi[0] z - phi[1] z^2 - ...,
// a moving average theta is 1 + theta[0] z + theta[1] z^2 + ....

// expand returns the coefficients of the product of a non-seasonal
// polynomial with coefficients a and a seasonal one with coefficients s
// in z^period, both with the sign convention sign (-1 for an
// autoregression, +1 for a moving average), in the same convention.
func expand(a, s []float64, period int, sign float64) []float64 {
	return expandInto(nil, a, s, period, sign)
}

// expandInto is expand writing into dst's array when it is large enough.
func expandInto(dst, a, s []float64, period int, sign float64) []float64 {
	out := resize(dst, len(a)+len(s)*period)
	copy(out, a)
	for j, sj := range s {
		lag := (j + 1) * period
		out[lag-1] += sj
		// (sign a_i z^i)(sign s_j z^lag) = sign*(sign a_i s_j) z^(i+lag)
		for i, ai := range a {
			out[lag+i] += sign * ai * sj
		}
	}
	return out
}

// stationary reports whether every root of 1 - phi[0] z - ... lies outside
// the circle of radius r, by the Schur-Cohn step-down recursion: the
// partial autocorrelations it recovers must all be under 1 in absolute
// value. Trailing coefficients under 1e-8 in absolute value are dropped
// first, as R's forecast::auto.arima does before taking roots.
func stationary(phi []float64, r float64) bool { return stationaryWith(nil, phi, r) }

// stationaryWith is stationary with the buffers of s (nil: new ones).
func stationaryWith(s *mlScratch, phi []float64, r float64) bool {
	k := len(phi)
	for k > 0 && math.Abs(phi[k-1]) <= 1e-8 {
		k--
	}
	var a, b []float64
	if s == nil {
		a, b = make([]float64, k), make([]float64, k)
	} else {
		a, b = grab(s, &s.statA, k), grab(s, &s.statB, k)
	}
	for j := range a {
		a[j] = phi[j] * math.Pow(r, float64(j+1))
	}
	for p := k; p > 0; p-- {
		kappa := a[p-1]
		if math.Abs(kappa) >= 1 {
			return false
		}
		for j := range p - 1 {
			b[j] = (a[j] + kappa*a[p-2-j]) / (1 - kappa*kappa)
		}
		copy(a, b[:p-1])
	}
	return true
}

// invertible reports whether every root of 1 + theta[0] z + ... lies
// outside the circle of radius r.
func invertible(theta []float64, r float64) bool {
	neg := make([]float64, len(theta))
	for i, v := range theta {
		neg[i] = -v
	}
	return stationary(neg, r)
}

// toPACF returns the partial autocorrelations of the stationary
// autoregression phi (the step-down recursion); each lies in (-1, 1).
func toPACF(phi []float64) []float64 { return toPACFWith(nil, phi) }

// toPACFWith is toPACF with the buffers of s (nil: new ones).
func toPACFWith(s *mlScratch, phi []float64) []float64 {
	p := len(phi)
	var a, out, b []float64
	if s == nil {
		a, out, b = make([]float64, p), make([]float64, p), make([]float64, p)
	} else {
		a, out, b = grab(s, &s.pacfA, p), grab(s, &s.kappa, p), grab(s, &s.pacf, p)
	}
	copy(a, phi)
	for k := p; k > 0; k-- {
		kappa := a[k-1]
		out[k-1] = kappa
		for j := range k - 1 {
			b[j] = (a[j] + kappa*a[k-2-j]) / (1 - kappa*kappa)
		}
		copy(a, b[:k-1])
	}
	return out
}

// fromPACF returns the autoregression with partial autocorrelations
// kappa (the Durbin-Levinson recursion); it is stationary when every
// kappa lies in (-1, 1).
func fromPACF(kappa []float64) []float64 { return fromPACFInto(nil, nil, kappa) }

// maInvert returns the moving average theta with every root inside the
// unit circle replaced by its reciprocal, as R's arima does after
// fitting: the process has the same autocovariances, so the same exact
// likelihood, and is invertible. Trailing zero coefficients stay zero.
func maInvert(theta []float64) []float64 {
	q := len(theta)
	for q > 0 && theta[q-1] == 0 {
		q--
	}
	if q == 0 || invertible(theta[:q], 1) {
		return theta
	}
	roots := polyRoots(append([]float64{1}, theta[:q]...))
	x := []complex128{1}
	for _, r := range roots {
		if cmplx.Abs(r) < 1 {
			r = 1 / r
		}
		next := make([]complex128, len(x)+1)
		copy(next, x)
		for i, v := range x {
			next[i+1] -= v / r
		}
		x = next
	}
	out := make([]float64, len(theta))
	for i := range q {
		out[i] = real(x[i+1])
	}
	return out
}

// polyRoots returns the roots of c[0] + c[1] z + ... + c[n] z^n, c[n] not
// zero, by the Durand-Kerner iteration, enough for the low degrees of a
// moving average's factors.
func polyRoots(c []float64) []complex128 {
	n := len(c) - 1
	roots := make([]complex128, n)
	for i := range roots {
		roots[i] = cmplx.Pow(complex(0.4, 0.9), complex(float64(i), 0))
	}
	eval := func(z complex128) complex128 {
		v := complex(c[n], 0)
		for i := n - 1; i >= 0; i-- {
			v = v*z + complex(c[i], 0)
		}
		return v / complex(c[n], 0)
	}
	for range 500 {
		var change float64
		for i, z := range roots {
			den := complex(1, 0)
			for j, w := range roots {
				if j != i {
					den *= z - w
				}
			}
			next := z - eval(z)/den
			change = max(change, cmplx.Abs(next-z))
			roots[i] = next
		}
		if change < 1e-14 {
			break
		}
	}
	return roots
}
