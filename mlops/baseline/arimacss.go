package baseline

// cssWork holds the buffers of the conditional sum of squares from one
// call to the next: the residuals e and the centred series x of the
// latest evaluation, at the parameters last, so that the gradient at the
// point just evaluated (as bfgs asks for it) need not recompute them,
// and the adjoints lam of the gradient.
type cssWork struct {
	e, x, lam []float64
	last      []float64
	ssq       float64
	nu        int
	valid     bool
	// dPhi and dTheta memoise the derivatives of the objective in the
	// expanded polynomials' coefficients, by lag; done marks those
	// computed.
	dPhi, dTheta       []float64
	donePhi, doneTheta []bool
	// phi and theta are the expanded polynomials of the parameters
	// last unpacked, ar to sma their parts; arLags and arCoefs the
	// nonzero terms of phi.
	phi, theta, ar, ma []float64
	sar, sma, arCoefs  []float64
	arLags             []int
}

// remember records that the residuals in w's buffers are those of u.
func (c *cssWork) remember(u []float64, ssq float64, nu int) {
	c.last = append(c.last[:0], u...)
	c.ssq, c.nu, c.valid = ssq, nu, true
}

// holds reports whether the buffers hold the residuals of u, bit for bit.
func (c *cssWork) holds(u []float64) bool {
	if !c.valid || len(u) != len(c.last) {
		return false
	}
	for i, v := range u {
		if v != c.last[i] {
			return false
		}
	}
	return true
}

// cssGradient writes into g the gradient of css at u, the conditional
// sum of squares' objective 0.5*log(ssq/nu), whose derivative is
// sum_t e_t de_t/du / ssq. It is taken backwards (the adjoint method):
// with x = w - mean and the expanded polynomials, the residuals are
//
//	e_t = x_t - sum_k phi_k x_(t-k) - sum_j theta_j e_(t-j)
//
// from the span nc of the autoregression on (those before are zero), so
// the sensitivity of half the sum of squares to e_t, counting its effect
// on the later residuals, is
//
//	lam_t = e_t - sum_j theta_j lam_(t+j)     (lam is zero past the end),
//
// and the derivative in any coefficient is the sum over t of lam_t
// times its direct effect on e_t: -x_(t-k) for phi_k, -e_(t-k) for
// theta_k and -(1 - sum phi) for the mean. One backward pass and one
// inner product per coefficient give the whole gradient, whatever the
// number of parameters. The chain rule through the product of the
// seasonal and non-seasonal factors gives the parameters' (an AR
// coefficient i moves phi_i by 1 and phi_(i+j*m) by -SAR_j, and so on).
func (sp armaSpec) cssGradient(w, u, g []float64) {
	c := sp.work
	if c == nil {
		c = &cssWork{}
		sp.work = c
	}
	if !c.holds(u) {
		sp.cssSum(w, u)
	}
	ar, ma, sar, sma, _ := sp.unpackInto(c, u)
	phi, theta := c.phi, c.theta
	n, nc := len(w), len(phi)
	c.adjoints(theta, n, nc)
	c.dPhi, c.donePhi = resize(c.dPhi, nc+1), resizeBool(c.donePhi, nc+1)
	c.dTheta, c.doneTheta = resize(c.dTheta, len(theta)+1), resizeBool(c.doneTheta, len(theta)+1)
	m := sp.period
	i := 0
	for a := range ar {
		v := c.phiDeriv(a+1, nc)
		for s, cs := range sar {
			v -= cs * c.phiDeriv(a+1+(s+1)*m, nc)
		}
		g[i], i = v, i+1
	}
	for a := range ma {
		v := c.thetaDeriv(a+1, nc)
		for s, cs := range sma {
			v += cs * c.thetaDeriv(a+1+(s+1)*m, nc)
		}
		g[i], i = v, i+1
	}
	for s := range sar {
		v := c.phiDeriv((s+1)*m, nc)
		for a, ca := range ar {
			v -= ca * c.phiDeriv(a+1+(s+1)*m, nc)
		}
		g[i], i = v, i+1
	}
	for s := range sma {
		v := c.thetaDeriv((s+1)*m, nc)
		for a, ca := range ma {
			v += ca * c.thetaDeriv(a+1+(s+1)*m, nc)
		}
		g[i], i = v, i+1
	}
	if sp.constant {
		sumPhi, sumLam := 0.0, 0.0
		for _, ph := range phi {
			sumPhi += ph
		}
		for _, l := range c.lam[nc:n] {
			sumLam += l
		}
		g[i] = sp.scale * (-(1 - sumPhi) * sumLam / c.ssq)
	}
}

// phiDeriv is the derivative of the objective in phi_k, computed once.
func (c *cssWork) phiDeriv(k, nc int) float64 {
	if !c.donePhi[k] {
		n := len(c.e)
		c.dPhi[k], c.donePhi[k] = -dot(c.lam[nc:n], c.x[nc-k:n-k])/c.ssq, true
	}
	return c.dPhi[k]
}

// thetaDeriv is the derivative of the objective in theta_k, computed
// once; residuals before nc are zero.
func (c *cssWork) thetaDeriv(k, nc int) float64 {
	if !c.doneTheta[k] {
		n := len(c.e)
		var v float64
		if nc+k < n {
			v = -dot(c.lam[nc+k:n], c.e[nc:n-k]) / c.ssq
		}
		c.dTheta[k], c.doneTheta[k] = v, true
	}
	return c.dTheta[k]
}

// dot is the inner product of a and b, which have the same length, in
// four partial sums.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// resize returns s with n values, all zero, reusing its array when it is
// large enough.
func resize[T int | float64](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// resizeBool is resize for flags: n values, all false.
func resizeBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}
