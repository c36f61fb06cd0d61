package baseline

import (
	"errors"
	"math"
)

// errNotStationary reports an autoregression whose autocovariances do not
// exist, so that the exact likelihood has no stationary start.
var errNotStationary = errors.New("baseline: arima autoregression not stationary")

// armaFilter is the Kalman filter of a zero-mean ARMA process with unit
// innovation variance in the state space form of Jones (1980): with
// r = max(p, q+1), the state at row t holds the value of row t and its
// forecasts of the next r-1 rows, x(t) = (w(t), w(t+1|t), ...,
// w(t+r-1|t)). The state moves as x(t+1) = T x(t) + psi e(t+1), with T
// shifting the forecasts up and forming the last from the
// autoregression, and psi the first r weights of the process's
// moving-average representation; the observation is x(t)[0], without
// noise. The filter starts from the stationary distribution, so its
// likelihood is the exact Gaussian likelihood.
//
// The covariance P of the predicted state is not kept: from the
// stationary start, P(t+1) - P(t) has rank one, w m w', so the
// Chandrasekhar recursions (Morf, Sidhu and Kailath 1974) carry only its
// first column p, the prediction variance F = p[0], and w and m:
//
//	p' = p + w m w[0],   F' = F + m w[0]^2,
//	w' = T (w - (w[0]/F') p'),   m' = m F'/F,
//
// starting from p = the autocovariances at lags 0..r-1, w = T p and
// m = -1/F. A step costs O(r) rather than the O(r^2) of the covariance
// recursion.
type armaFilter struct {
	r   int
	phi []float64 // r values, zero past p
	nz  []int     // the lags j of the nonzero phi[j-1]
	// a is the state's mean predicted for the next row; p, w and m are as
	// above.
	a, p, w []float64
	m       float64
}

// newARMAFilter returns the filter of the ARMA process with the expanded
// polynomials phi and theta, at its stationary start, or
// errNotStationary.
func newARMAFilter(phi, theta []float64) (*armaFilter, error) {
	r := max(len(phi), len(theta)+1)
	k := &armaFilter{r: r, phi: make([]float64, r), a: make([]float64, r), w: make([]float64, r)}
	copy(k.phi, phi)
	for j, v := range phi {
		if v != 0 {
			k.nz = append(k.nz, j+1)
		}
	}
	psi := make([]float64, r)
	psi[0] = 1
	for j := 1; j < r; j++ {
		if j <= len(theta) {
			psi[j] = theta[j-1]
		}
		for i := 1; i <= min(j, len(phi)); i++ {
			psi[j] += phi[i-1] * psi[j-i]
		}
	}
	gamma, err := autocovariances(phi, theta, psi, r)
	if err != nil {
		return nil, err
	}
	k.p = gamma
	copy(k.w, gamma)
	k.transition(k.w)
	k.m = -1 / gamma[0]
	return k, nil
}

// autocovariances returns the autocovariances at lags 0..n-1 of the ARMA
// process with unit innovation variance, psi holding at least its first
// q+1 moving-average weights: the first p+1 solve the linear equations
// gamma(k) - sum phi_j gamma(|k-j|) = sum_{j>=k} theta_j psi_{j-k}, the
// rest follow by the recursion.
func autocovariances(phi, theta, psi []float64, n int) ([]float64, error) {
	p, q := len(phi), len(theta)
	rhs := func(k int) float64 {
		var s float64
		for j := k; j <= q; j++ {
			th := 1.0
			if j > 0 {
				th = theta[j-1]
			}
			s += th * psi[j-k]
		}
		return s
	}
	a := make([]float64, (p+1)*(p+1))
	b := make([]float64, p+1)
	for k := range p + 1 {
		a[k*(p+1)+k] += 1
		for j := 1; j <= p; j++ {
			l := k - j
			if l < 0 {
				l = -l
			}
			a[k*(p+1)+l] -= phi[j-1]
		}
		b[k] = rhs(k)
	}
	if !solveLinear(a, b) {
		return nil, errNotStationary
	}
	gamma := make([]float64, max(n, p+1))
	copy(gamma, b)
	for k := p + 1; k < n; k++ {
		v := rhs(k)
		for j := 1; j <= p; j++ {
			v += phi[j-1] * gamma[k-j]
		}
		gamma[k] = v
	}
	if !(gamma[0] > 0) || math.IsInf(gamma[0], 0) {
		return nil, errNotStationary
	}
	return gamma[:n], nil
}

// solveLinear solves a x = b in place (x in b) by Gaussian elimination with
// partial pivoting; a is square and row-major. It reports false for a
// matrix singular to working precision.
func solveLinear(a, b []float64) bool {
	n := len(b)
	for c := range n {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r*n+c]) > math.Abs(a[piv*n+c]) {
				piv = r
			}
		}
		if math.Abs(a[piv*n+c]) < 1e-12 {
			return false
		}
		if piv != c {
			for j := range n {
				a[c*n+j], a[piv*n+j] = a[piv*n+j], a[c*n+j]
			}
			b[c], b[piv] = b[piv], b[c]
		}
		for r := c + 1; r < n; r++ {
			f := a[r*n+c] / a[c*n+c]
			for j := c; j < n; j++ {
				a[r*n+j] -= f * a[c*n+j]
			}
			b[r] -= f * b[c]
		}
	}
	for c := n - 1; c >= 0; c-- {
		for j := c + 1; j < n; j++ {
			b[c] -= a[c*n+j] * b[j]
		}
		b[c] /= a[c*n+c]
	}
	return true
}

// next is the filter's one-step forecast of the next row.
func (k *armaFilter) next() float64 { return k.a[0] }

// update takes in the value w of the next row and moves the prediction to
// the row after. It returns the innovation and its variance (relative to
// the innovation variance).
func (k *armaFilter) update(w float64) (v, f float64) {
	f = k.p[0]
	v = w - k.a[0]
	for i, pi := range k.p {
		k.a[i] += pi * v / f
	}
	k.transition(k.a)
	w0 := k.w[0]
	mw := k.m * w0
	for i, wi := range k.w {
		k.p[i] += wi * mw
	}
	fn := k.p[0]
	c := w0 / fn
	for i, pi := range k.p {
		k.w[i] -= c * pi
	}
	k.transition(k.w)
	k.m *= fn / f
	return v, f
}

// transition replaces the state x by T x.
func (k *armaFilter) transition(x []float64) {
	r := k.r
	var last float64
	for _, j := range k.nz {
		last += k.phi[j-1] * x[r-j]
	}
	copy(x, x[1:])
	x[r-1] = last
}

// forecast writes into dst the forecasts of the rows after the last taken
// in, without changing the filter.
func (k *armaFilter) forecast(dst []float64) {
	x := append([]float64(nil), k.a...)
	for i := range dst {
		dst[i] = x[0]
		k.transition(x)
	}
}
