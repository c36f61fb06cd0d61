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
type armaFilter struct {
	r   int
	phi []float64 // r values, zero past p
	psi []float64 // r values, psi[0] = 1
	// a and p are the state's mean and covariance (r x r, row-major)
	// predicted for the next row.
	a, p []float64
	// steady is set once the covariance has stopped changing: the gain
	// and the prediction variance are then fixed.
	steady bool
	gain   []float64
	f      float64
	nz     []int     // the lags j of the nonzero phi[j-1]
	tmp    []float64 // r x r scratch
	col    []float64 // r scratch
	last   []float64 // r scratch
}

// newARMAFilter returns the filter of the ARMA process with the expanded
// polynomials phi and theta, at its stationary start, or
// errNotStationary.
func newARMAFilter(phi, theta []float64) (*armaFilter, error) {
	r := max(len(phi), len(theta)+1)
	k := &armaFilter{r: r, phi: make([]float64, r), psi: make([]float64, r),
		a: make([]float64, r), p: make([]float64, r*r), gain: make([]float64, r), tmp: make([]float64, r*r), col: make([]float64, r), last: make([]float64, r)}
	copy(k.phi, phi)
	for j, v := range phi {
		if v != 0 {
			k.nz = append(k.nz, j+1)
		}
	}
	k.psi[0] = 1
	for j := 1; j < r; j++ {
		if j <= len(theta) {
			k.psi[j] = theta[j-1]
		}
		for i := 1; i <= min(j, len(phi)); i++ {
			k.psi[j] += phi[i-1] * k.psi[j-i]
		}
	}
	gamma, err := autocovariances(phi, theta, k.psi, r)
	if err != nil {
		return nil, err
	}
	for i := range r {
		for j := i; j < r; j++ {
			v := gamma[j-i]
			for l := range i {
				v -= k.psi[l] * k.psi[l+j-i]
			}
			k.p[i*r+j], k.p[j*r+i] = v, v
		}
	}
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
	r := k.r
	v = w - k.a[0]
	if !k.steady {
		k.f = k.p[0]
		for i := range r {
			k.gain[i] = k.p[i*r] / k.f
		}
	}
	f = k.f
	for i := range r {
		k.a[i] += k.gain[i] * v
	}
	k.transition(k.a)
	if !k.steady {
		k.advanceCovariance()
	}
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

// advanceCovariance replaces the covariance P, predicted for the row just
// taken in, by T (P - P e0 e0' P / P00) T' + psi psi', the prediction for
// the row after, and sets steady once it no longer changes. T P T' shifts
// P up and left but for its last row and column, which the few nonzero
// autoregressive coefficients (a seasonal model's expanded polynomial is
// sparse) form.
func (k *armaFilter) advanceCovariance() {
	r, p, n, u, last := k.r, k.p, k.tmp, k.col, k.last
	p00 := p[0]
	u[r-1] = 0
	for i := range r - 1 {
		u[i] = p[(i+1)*r]
	}
	for j := range r {
		var s float64
		for _, l := range k.nz {
			s += k.phi[l-1] * p[(r-l)*r+j]
		}
		last[j] = s
	}
	u[r-1] = last[0]
	for i := range r - 1 {
		copy(n[i*r+i:i*r+r-1], p[(i+1)*r+i+1:(i+1)*r+r])
		n[i*r+r-1] = last[i+1]
	}
	var corner float64
	for _, l := range k.nz {
		corner += k.phi[l-1] * last[r-l]
	}
	n[r*r-1] = corner
	var change float64
	for i := range r {
		for j := i; j < r; j++ {
			v := n[i*r+j] - u[i]*u[j]/p00 + k.psi[i]*k.psi[j]
			change = max(change, math.Abs(v-p[i*r+j]))
			p[i*r+j], p[j*r+i] = v, v
		}
	}
	if change < 1e-9 {
		k.steady = true
		k.f = k.p[0]
		for i := range r {
			k.gain[i] = k.p[i*r] / k.f
		}
	}
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
