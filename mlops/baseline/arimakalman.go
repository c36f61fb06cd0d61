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
	// same counts the latest rows whose prediction variance did not
	// change; settled is set once the filter has converged (see settle).
	same    int
	settled bool
	// g is steady's gain, kept to be reused.
	g []float64
}

// newARMAFilter returns the filter of the ARMA process with the expanded
// polynomials phi and theta, at its stationary start, or
// errNotStationary.
func newARMAFilter(phi, theta []float64) (*armaFilter, error) {
	return newARMAFilterWith(nil, phi, theta)
}

// newARMAFilterWith is newARMAFilter with the buffers of s (nil: new
// ones); the filter returned is then s's and lives until s's next use.
func newARMAFilterWith(s *mlScratch, phi, theta []float64) (*armaFilter, error) {
	r := max(len(phi), len(theta)+1)
	k := &armaFilter{}
	if s != nil {
		k = &s.filter
		*k = armaFilter{phi: k.phi, a: k.a, w: k.w, nz: k.nz[:0], g: k.g}
	}
	k.r = r
	k.phi, k.a, k.w = grab(s, &k.phi, r), grab(s, &k.a, r), grab(s, &k.w, r)
	copy(k.phi, phi)
	for j, v := range phi {
		if v != 0 {
			k.nz = append(k.nz, j+1)
		}
	}
	gamma, err := autocovariancesWith(s, phi, theta, r)
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
// process with unit innovation variance, or errNotStationary. The
// process is theta(B) u with u the autoregression phi(B) u = e, so
//
//	gamma(k) = sum_i sum_j theta_i theta_j gamma_u(k + i - j)
//
// over the nonzero coefficients (theta_0 = 1; a seasonal polynomial has
// few). gamma_u comes from the partial autocorrelations kappa of phi by
// the Durbin-Levinson recursion: gamma_u(0) = 1/prod(1 - kappa_k^2) and
// rho(k) = kappa_k prod_{i<k}(1 - kappa_i^2) + sum_j phi_{k-1,j} rho(k-j),
// then rho(k) = sum_j phi_j rho(k-j) past p.
func autocovariances(phi, theta []float64, n int) ([]float64, error) {
	return autocovariancesWith(nil, phi, theta, n)
}

// maTerm is a nonzero coefficient c of a moving average at lag lag.
type maTerm struct {
	lag int
	c   float64
}

// autocovariancesWith is autocovariances with the buffers of s (nil:
// new ones).
func autocovariancesWith(s *mlScratch, phi, theta []float64, n int) ([]float64, error) {
	q := len(theta)
	lags := n + q
	gu, err := arAutocovariancesWith(s, phi, lags)
	if err != nil {
		return nil, err
	}
	var ma []maTerm
	if s != nil {
		ma = s.terms[:0]
	}
	ma = append(ma, maTerm{0, 1})
	for j, v := range theta {
		if v != 0 {
			ma = append(ma, maTerm{j + 1, v})
		}
	}
	if s != nil {
		s.terms = ma
	}
	var gamma []float64
	if s == nil {
		gamma = make([]float64, n)
	} else {
		gamma = grab(s, &s.gamma, n)
	}
	for k := range gamma {
		var g float64
		for _, a := range ma {
			for _, b := range ma {
				h := k + a.lag - b.lag
				if h < 0 {
					h = -h
				}
				g += a.c * b.c * gu[h]
			}
		}
		gamma[k] = g
	}
	if !(gamma[0] > 0) || math.IsInf(gamma[0], 0) {
		return nil, errNotStationary
	}
	return gamma, nil
}

// arAutocovariances returns the autocovariances at lags 0..n-1 of the
// autoregression phi with unit innovation variance, or errNotStationary.
func arAutocovariances(phi []float64, n int) ([]float64, error) {
	return arAutocovariancesWith(nil, phi, n)
}

// arAutocovariancesWith is arAutocovariances with the buffers of s (nil:
// new ones).
func arAutocovariancesWith(s *mlScratch, phi []float64, n int) ([]float64, error) {
	p := len(phi)
	if !stationaryWith(s, phi, 1) {
		return nil, errNotStationary
	}
	kappa := toPACFWith(s, phi)
	var rho, prev, cur []float64 // prev: phi_{k-1,.}
	if s == nil {
		rho, prev, cur = make([]float64, max(n, p+1)), make([]float64, p), make([]float64, p)
	} else {
		rho, prev, cur = grab(s, &s.rho, max(n, p+1)), grab(s, &s.prev, p), grab(s, &s.cur, p)
	}
	rho[0] = 1
	v := 1.0 // prod_{i<k} (1 - kappa_i^2)
	for k := 1; k <= p; k++ {
		kk := kappa[k-1]
		r := kk * v
		for j := 1; j < k; j++ {
			r += prev[j-1] * rho[k-j]
		}
		rho[k] = r
		for j := 1; j < k; j++ {
			cur[j-1] = prev[j-1] - kk*prev[k-1-j]
		}
		cur[k-1] = kk
		copy(prev, cur[:k])
		v *= 1 - kk*kk
	}
	for k := p + 1; k < len(rho); k++ {
		var r float64
		for j, ph := range phi {
			if ph != 0 {
				r += ph * rho[k-j-1]
			}
		}
		rho[k] = r
	}
	if !(v > 0) {
		return nil, errNotStationary
	}
	for k := range rho {
		rho[k] /= v
	}
	return rho[:n], nil
}

// next is the filter's one-step forecast of the next row.
func (k *armaFilter) next() float64 { return k.a[0] }

// update takes in the value w of the next row and moves the prediction to
// the row after. It returns the innovation and its variance (relative to
// the innovation variance).
func (k *armaFilter) update(w float64) (v, f float64) {
	r := k.r
	a, p, kw := k.a[:r], k.p[:r], k.w[:r]
	f = p[0]
	v = w - a[0]
	for i, pi := range p {
		a[i] += pi * v / f
	}
	k.transition(a)
	if k.settled {
		return v, f
	}
	w0 := kw[0]
	mw := k.m * w0
	for i, wi := range kw {
		p[i] += wi * mw
	}
	fn := p[0]
	c := w0 / fn
	for i, pi := range p {
		kw[i] -= c * pi
	}
	k.transition(kw)
	k.m *= fn / f
	k.settle(fn == f)
	return v, f
}

// steady takes in the values w less mu with the filter settled, its
// gain p/F fixed, and returns the sum of their squared innovations.
func (k *armaFilter) steady(w []float64, mu float64) float64 {
	r := k.r
	a, f := k.a[:r], k.p[0]
	k.g = resize(k.g, r)
	g := k.g
	for i, pi := range k.p[:r] {
		g[i] = pi / f
	}
	var ssq float64
	for _, y := range w {
		v := y - mu - a[0]
		ssq += v * v
		var last float64
		for _, j := range k.nz {
			last += k.phi[j-1] * (a[r-j] + g[r-j]*v)
		}
		for i := 0; i < r-1; i++ {
			a[i] = a[i+1] + g[i+1]*v
		}
		a[r-1] = last
	}
	return ssq
}

// settle counts the rows in a row whose prediction variance did not
// change, same reporting whether this one's did not, and marks the
// filter settled after 2r+2 of them when the change still to come,
// |m| max w_i^2 for the largest term of w, is below 1e-17 of the
// variance: from then on update keeps p (the gain) fixed, which moves
// the likelihood by parts in 1e16.
func (k *armaFilter) settle(same bool) {
	if !same {
		k.same = 0
		return
	}
	k.same++
	if k.same < 2*k.r+2 {
		return
	}
	var big float64
	for _, wi := range k.w {
		big = math.Max(big, wi*wi)
	}
	if math.Abs(k.m)*big < 1e-17*k.p[0] {
		k.settled = true
	}
}

// transition replaces the state x by T x.
func (k *armaFilter) transition(x []float64) {
	r := k.r
	x = x[:r]
	var last float64
	for _, j := range k.nz {
		last += k.phi[j-1] * x[r-j]
	}
	copy(x[:r-1], x[1:])
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
