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
// on). One pass per coefficient replaces the two evaluations per
// parameter of central differences.
func (sp armaSpec) cssGradient(w, u, g []float64) {
	ar, ma, sar, sma, mu := sp.unpack(u, false)
	m := sp.period
	c := newCSSDerivs(w, expand(ar, sar, m, -1), expand(ma, sma, m, 1), mu)
	dPhi := func(k int) float64 { return c.deriv(c.x, 0, k, 0) }
	dTheta := func(k int) float64 { return c.deriv(c.ep, c.off, k, 0) }
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
		g[i] = sp.scale * c.deriv(nil, 0, 0, -(1-c.sumPhi))
	}
}

// cssDerivs holds the conditional residuals of one point and computes
// their derivatives. x is the centred series; ep and dp carry off zeros
// before row 0 and are zero before row nc, so that the recursions need
// no bounds test: ep[off+t] is the residual of row t, dp[off+t] the
// derivative being computed.
type cssDerivs struct {
	phi, theta  []float64
	nzTheta     []int
	x, e        []float64
	ep, dp      []float64
	nc, off     int
	ssq, sumPhi float64
}

// newCSSDerivs computes the conditional residuals of w less mu under the
// expanded polynomials phi and theta.
func newCSSDerivs(w, phi, theta []float64, mu float64) *cssDerivs {
	n, off := len(w), len(theta)
	c := &cssDerivs{phi: phi, theta: theta, nc: len(phi), off: off,
		x: make([]float64, n), ep: make([]float64, n+off), dp: make([]float64, n+off)}
	c.e = c.ep[off:]
	for j, th := range theta {
		if th != 0 {
			c.nzTheta = append(c.nzTheta, j)
		}
	}
	for _, ph := range phi {
		c.sumPhi += ph
	}
	for t, v := range w {
		c.x[t] = v - mu
	}
	for t := c.nc; t < n; t++ {
		r := c.x[t]
		for j, ph := range phi {
			r -= ph * c.x[t-j-1]
		}
		for _, j := range c.nzTheta {
			r -= theta[j] * c.ep[t+off-j-1]
		}
		c.e[t] = r
		c.ssq += r * r
	}
	return c
}

// deriv returns sum e_t de_t/dc / ssq for the coefficient whose direct
// effect on row t is -src[t+pad-k] (c.x unpadded, or c.ep), or the
// constant cst when src is nil.
func (c *cssDerivs) deriv(src []float64, pad, k int, cst float64) float64 {
	var sum float64
	for t := c.nc; t < len(c.x); t++ {
		v := cst
		if src != nil {
			v = -src[t+pad-k]
		}
		for _, j := range c.nzTheta {
			v -= c.theta[j] * c.dp[t+c.off-j-1]
		}
		c.dp[t+c.off] = v
		sum += c.e[t] * v
	}
	return sum / c.ssq
}
