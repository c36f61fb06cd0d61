package baseline

// cssGradient writes into g the gradient of css at u, the conditional
// sum of squares' objective 0.5*log(ssq/nu), whose derivative is
// sum e_t de_t/du / ssq. The derivatives of the residuals follow their
// own recursion: with x = w - mean and the expanded polynomials,
//
//	de_t/dphi_k   = -x(t-k)            - sum_j theta_j de_(t-j)/dphi_k
//	de_t/dtheta_k = -e(t-k)            - sum_j theta_j de_(t-j)/dtheta_k
//	de_t/dmean    = -(1 - sum phi_k)   - sum_j theta_j de_(t-j)/dmean
//
// over the rows the residuals start at, and the chain rule through the
// product of the seasonal and non-seasonal factors gives the parameters'
// (an AR coefficient i moves phi_i by 1 and phi_(i+j*m) by -SAR_j, and so
// on). One pass over the rows computes the residuals and every
// derivative that the parameters need, in place of the two evaluations
// per parameter of central differences; each derivative's arithmetic is
// that of a pass of its own, so the gradient does not depend on how
// many are computed together.
func (sp armaSpec) cssGradient(w, u, g []float64) {
	ar, ma, sar, sma, mu := sp.unpack(u, false)
	m := sp.period
	c := sp.derivs(w, expand(ar, sar, m, -1), expand(ma, sma, m, 1), mu)
	for a := range ar {
		c.need(false, a+1)
		for s := range sar {
			c.need(false, a+1+(s+1)*m)
		}
	}
	for a := range ma {
		c.need(true, a+1)
		for s := range sma {
			c.need(true, a+1+(s+1)*m)
		}
	}
	for s := range sar {
		c.need(false, (s+1)*m)
	}
	for s := range sma {
		c.need(true, (s+1)*m)
	}
	c.run(sp.constant)
	dPhi := func(k int) float64 { return c.sums[c.phiAt[k]] / c.ssq }
	dTheta := func(k int) float64 { return c.sums[c.thetaAt[k]] / c.ssq }
	i := 0
	for a := range ar {
		v := dPhi(a + 1)
		for s, cs := range sar {
			v -= cs * dPhi(a+1+(s+1)*m)
		}
		g[i], i = v, i+1
	}
	for a := range ma {
		v := dTheta(a + 1)
		for s, cs := range sma {
			v += cs * dTheta(a+1+(s+1)*m)
		}
		g[i], i = v, i+1
	}
	for s := range sar {
		v := dPhi((s + 1) * m)
		for a, ca := range ar {
			v -= ca * dPhi(a+1+(s+1)*m)
		}
		g[i], i = v, i+1
	}
	for s := range sma {
		v := dTheta((s + 1) * m)
		for a, ca := range ma {
			v += ca * dTheta(a+1+(s+1)*m)
		}
		g[i], i = v, i+1
	}
	if sp.constant {
		g[i] = sp.scale * (c.sums[len(c.recs)] / c.ssq)
	}
}

// cssDerivs computes the conditional residuals of one point and the
// derivatives of the residuals in one pass. x is the centred series; ep
// carries off zeros before row 0 and is zero before row nc, so that the
// recursions need no bounds test: ep[off+t] is the residual of row t.
// dp holds, row by row from off rows before row 0, one derivative per
// recursion: dp[(off+t)*width+i] is that of recursion i at row t.
type cssDerivs struct {
	phi, theta []float64
	nzTheta    []int
	x, ep, dp  []float64
	nc, off    int
	// recs are the derivatives asked for: of phi_k (theta false) or
	// theta_k; phiAt and thetaAt give each lag's index in recs, -1 if
	// not asked for. sums receives each one's sum of e_t de_t, then that
	// of the mean's.
	recs           []cssRec
	phiAt, thetaAt []int
	sums           []float64
	ssq, sumPhi    float64
	// src and lag are run's scratch.
	src [][]float64
	lag []int
}

// cssRec is one derivative recursion: that of phi_k, or of theta_k.
type cssRec struct {
	theta bool
	k     int
}

// derivs returns the derivative state for w less mu under the expanded
// polynomials phi and theta, in buffers kept in sp's scratch from one
// call to the next.
func (sp armaSpec) derivs(w, phi, theta []float64, mu float64) *cssDerivs {
	c := sp.scratch
	if c == nil {
		c = &cssDerivs{}
	}
	n, off := len(w), len(theta)
	c.phi, c.theta, c.nc, c.off = phi, theta, len(phi), off
	c.x = resize(c.x, n)
	c.ep = resize(c.ep, n+off)
	c.nzTheta, c.recs, c.sums = c.nzTheta[:0], c.recs[:0], c.sums[:0]
	c.phiAt = fill(resize(c.phiAt, len(phi)+1), -1)
	c.thetaAt = fill(resize(c.thetaAt, len(theta)+1), -1)
	for j, th := range theta {
		if th != 0 {
			c.nzTheta = append(c.nzTheta, j)
		}
	}
	c.sumPhi, c.ssq = 0, 0
	for _, ph := range phi {
		c.sumPhi += ph
	}
	for t, v := range w {
		c.x[t] = v - mu
	}
	return c
}

// need asks for the derivative of phi_k, or theta_k when theta is set,
// unless it was asked for.
func (c *cssDerivs) need(theta bool, k int) {
	at := c.phiAt
	if theta {
		at = c.thetaAt
	}
	if at[k] < 0 {
		at[k] = len(c.recs)
		c.recs = append(c.recs, cssRec{theta, k})
	}
}

// run computes the residuals, their sum of squares and, row by row, the
// derivatives asked for, then that of the mean when constant is set:
// sums[i] is sum over t of e_t de_t/dc for recursion i, whose direct
// effect on row t is -x(t-k) for phi_k, -e(t-k) for theta_k and
// -(1 - sum phi) for the mean.
func (c *cssDerivs) run(constant bool) {
	width := len(c.recs)
	if constant {
		width++
	}
	n, off, nc := len(c.x), c.off, c.nc
	c.sums = resize(c.sums, width)
	c.dp = resize(c.dp, (n+off)*width)
	x, ep := c.x, c.ep
	phi, theta, nz := c.phi, c.theta, c.nzTheta
	// src[i] and lag[i] give recursion i's direct effect on row t,
	// -src[i][t+lag[i]]; the mean's is the constant cst.
	src := c.src[:0]
	lag := c.lag[:0]
	for _, rc := range c.recs {
		if rc.theta {
			src, lag = append(src, ep), append(lag, off-rc.k)
		} else {
			src, lag = append(src, x), append(lag, -rc.k)
		}
	}
	c.src, c.lag = src, lag
	cst := -(1 - c.sumPhi)
	var ssq float64
	for t := nc; t < n; t++ {
		r := x[t]
		for j, ph := range phi {
			r -= ph * x[t-j-1]
		}
		for _, j := range nz {
			r -= theta[j] * ep[t+off-j-1]
		}
		ep[t+off] = r
		ssq += r * r
		c.derivRow(t, r, cst)
	}
	c.ssq = ssq
}

// derivRow computes the derivatives of row t, whose residual is r, from
// those of the rows before, and adds r times each to its sum; cst is the
// mean's direct effect. Each derivative takes its terms in the order of
// nzTheta; the loops for one to three nonzero theta_j are unrolled.
func (c *cssDerivs) derivRow(t int, r, cst float64) {
	width, nz, theta := len(c.sums), c.nzTheta, c.theta
	base := (t + c.off) * width
	row, sums := c.dp[base:base+width], c.sums[:width]
	src, lag := c.src, c.lag
	back := func(k int) ([]float64, float64) {
		return c.dp[base-(nz[k]+1)*width:][:width], theta[nz[k]]
	}
	direct := func(i int) float64 {
		if i < len(src) {
			return -src[i][t+lag[i]]
		}
		return cst
	}
	switch len(nz) {
	case 0:
		for i := range row {
			v := direct(i)
			row[i] = v
			sums[i] += r * v
		}
	case 1:
		d0, th0 := back(0)
		for i := range row {
			v := direct(i) - th0*d0[i]
			row[i] = v
			sums[i] += r * v
		}
	case 2:
		d0, th0 := back(0)
		d1, th1 := back(1)
		for i := range row {
			v := direct(i) - th0*d0[i]
			v -= th1 * d1[i]
			row[i] = v
			sums[i] += r * v
		}
	case 3:
		d0, th0 := back(0)
		d1, th1 := back(1)
		d2, th2 := back(2)
		for i := range row {
			v := direct(i) - th0*d0[i]
			v -= th1 * d1[i]
			v -= th2 * d2[i]
			row[i] = v
			sums[i] += r * v
		}
	default:
		for i := range row {
			v := direct(i)
			for _, j := range nz {
				v -= theta[j] * c.dp[base-(j+1)*width+i]
			}
			row[i] = v
			sums[i] += r * v
		}
	}
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

// fill sets every value of s to v and returns s.
func fill(s []int, v int) []int {
	for i := range s {
		s[i] = v
	}
	return s
}
