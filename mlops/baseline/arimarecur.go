package baseline

// The row-by-row recursions of the conditional sum of squares and of its
// gradient. Each is a chain of dependent operations through the latest
// residual (or adjoint); the moving-average terms are taken oldest first
// so that the one each row waits for enters last, and the chain is one
// multiplication and one subtraction per row whatever the order. Models
// of up to five moving-average terms keep the latest values in
// variables.

// cssSum returns the sum of squared conditional residuals of w and their
// number: residuals start at the span of the autoregression, those
// before taken as zero. The residuals and the centred series stay in
// sp.work, marked as those of u.
func (sp armaSpec) cssSum(w, u []float64) (float64, int) {
	c := sp.work
	if c == nil {
		c = &cssWork{}
	}
	_, _, _, _, mu := sp.unpackInto(c, u)
	phi, theta := c.phi, c.theta
	n, nc := len(w), len(phi)
	c.valid = false
	c.e, c.x = grow(c.e, n), grow(c.x, n)
	resid, x := c.e, c.x
	clear(resid[:min(nc, n)])
	for t, v := range w {
		x[t] = v - mu
	}
	// The first rows, whose moving average reaches back before nc, take
	// the general loop.
	start := min(nc+len(theta), n)
	ssq := cssRows(x, resid, phi, theta, nc, start)
	if start < n {
		c.arLags, c.arCoefs = c.arLags[:0], c.arCoefs[:0]
		for j, ph := range phi {
			if ph != 0 {
				c.arLags, c.arCoefs = append(c.arLags, j+1), append(c.arCoefs, ph)
			}
		}
		ssq = cssTail(x, resid, arTerms{c.arLags, c.arCoefs}, theta, start, ssq)
	}
	c.remember(u, ssq, n-nc)
	return ssq, n - nc
}

// cssRows computes the conditional residuals of rows from..to-1 of the
// centred series x into resid and returns the sum of their squares.
func cssRows(x, resid, phi, theta []float64, from, to int) float64 {
	var ssq float64
	nc := len(phi)
	for t := from; t < to; t++ {
		e := arPart(x, phi, t)
		for j, th := range theta[:min(len(theta), t-nc)] {
			e -= th * resid[t-j-1]
		}
		resid[t] = e
		ssq += e * e
	}
	return ssq
}

// arTerms are the nonzero terms of an autoregression, lags ascending: a
// seasonal model's expanded polynomial is mostly zeros.
type arTerms struct {
	lags  []int
	coefs []float64
}

// at is x(t) less the autoregression's terms, in order: the value of
// arPart, whose zero terms change nothing.
func (ar arTerms) at(x []float64, t int) float64 {
	e := x[t]
	lags := ar.lags[:len(ar.coefs)]
	for i, c := range ar.coefs {
		e -= c * x[t-lags[i]]
	}
	return e
}

// cssTail continues the residuals of cssSum from row start on, at least
// len(theta) rows past the span of the autoregression, adding their
// squares to ssq.
func cssTail(x, resid []float64, phi arTerms, theta []float64, start int, ssq float64) float64 {
	n := len(x)
	at := func(k int) float64 { return resid[start-k] }
	switch len(theta) {
	case 0:
		for t := start; t < n; t++ {
			e := phi.at(x, t)
			resid[t] = e
			ssq += e * e
		}
	case 1:
		e1, th0 := at(1), theta[0]
		for t := start; t < n; t++ {
			e := phi.at(x, t) - th0*e1
			resid[t], e1 = e, e
			ssq += e * e
		}
	case 2:
		e1, e2, th0, th1 := at(1), at(2), theta[0], theta[1]
		for t := start; t < n; t++ {
			e := phi.at(x, t) - th1*e2
			e -= th0 * e1
			resid[t], e1, e2 = e, e, e1
			ssq += e * e
		}
	case 3:
		e1, e2, e3, th0, th1, th2 := at(1), at(2), at(3), theta[0], theta[1], theta[2]
		for t := start; t < n; t++ {
			e := phi.at(x, t) - th2*e3
			e -= th1 * e2
			e -= th0 * e1
			resid[t], e1, e2, e3 = e, e, e1, e2
			ssq += e * e
		}
	default:
		ssq = cssTailLong(x, resid, phi, theta, start, ssq)
	}
	return ssq
}

// cssTailLong is cssTail for four or five moving-average terms (kept in
// variables, a fourth's missing fifth term zero) and for the longer
// polynomials of seasonal models (their nonzero terms, oldest first).
func cssTailLong(x, resid []float64, phi arTerms, theta []float64, start int, ssq float64) float64 {
	n := len(x)
	at := func(k int) float64 { return resid[start-k] }
	if len(theta) <= 5 {
		var th [5]float64
		copy(th[:], theta)
		e1, e2, e3, e4 := at(1), at(2), at(3), at(4)
		var e5 float64
		if len(theta) == 5 {
			e5 = at(5)
		}
		for t := start; t < n; t++ {
			e := phi.at(x, t) - th[4]*e5
			e -= th[3] * e4
			e -= th[2] * e3
			e -= th[1] * e2
			e -= th[0] * e1
			resid[t], e1, e2, e3, e4, e5 = e, e, e1, e2, e3, e4
			ssq += e * e
		}
		return ssq
	}
	nz := nonzeroLags(theta)
	for t := start; t < n; t++ {
		e := phi.at(x, t)
		for k := len(nz) - 1; k >= 0; k-- {
			j := nz[k]
			e -= theta[j] * resid[t-j-1]
		}
		resid[t] = e
		ssq += e * e
	}
	return ssq
}

// arPart is x(t) less the autoregression's terms, in order.
func arPart(x, phi []float64, t int) float64 {
	e := x[t]
	for j, ph := range phi {
		e -= ph * x[t-j-1]
	}
	return e
}

// adjoints fills lam[nc:n] backwards from the residuals e, lam_t = e_t -
// sum_j theta_j lam_(t+j); lam holds len(theta) zeros past n.
func (c *cssWork) adjoints(theta []float64, n, nc int) {
	q := len(theta)
	c.lam = grow(c.lam, n+q)
	lam, e := c.lam, c.e
	clear(lam[n:])
	switch q {
	case 0:
		copy(lam[nc:n], e[nc:n])
	case 1:
		l1, th0 := 0.0, theta[0]
		for t := n - 1; t >= nc; t-- {
			l := e[t] - th0*l1
			lam[t], l1 = l, l
		}
	case 2:
		l1, l2, th0, th1 := 0.0, 0.0, theta[0], theta[1]
		for t := n - 1; t >= nc; t-- {
			l := e[t] - th1*l2
			l -= th0 * l1
			lam[t], l1, l2 = l, l, l1
		}
	case 3:
		l1, l2, l3, th0, th1, th2 := 0.0, 0.0, 0.0, theta[0], theta[1], theta[2]
		for t := n - 1; t >= nc; t-- {
			l := e[t] - th2*l3
			l -= th1 * l2
			l -= th0 * l1
			lam[t], l1, l2, l3 = l, l, l1, l2
		}
	case 4, 5:
		var th [5]float64
		copy(th[:], theta)
		var l1, l2, l3, l4, l5 float64
		for t := n - 1; t >= nc; t-- {
			l := e[t] - th[4]*l5
			l -= th[3] * l4
			l -= th[2] * l3
			l -= th[1] * l2
			l -= th[0] * l1
			lam[t], l1, l2, l3, l4, l5 = l, l, l1, l2, l3, l4
		}
	default:
		nz := nonzeroLags(theta)
		for t := n - 1; t >= nc; t-- {
			l := e[t]
			for k := len(nz) - 1; k >= 0; k-- {
				j := nz[k]
				l -= theta[j] * lam[t+j+1]
			}
			lam[t] = l
		}
	}
}

// nonzeroLags returns the indices j of the nonzero theta[j].
func nonzeroLags(theta []float64) []int {
	var nz []int
	for j, th := range theta {
		if th != 0 {
			nz = append(nz, j)
		}
	}
	return nz
}

// grow returns s with n values, reusing its array when it is large
// enough; the values are left as they were.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
