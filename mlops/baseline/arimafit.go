package baseline

import (
	"errors"
	"fmt"
	"math"
)

// ARIMAOrder is the order of a seasonal ARIMA(p,d,q)(P,D,Q)[m] model:
// the non-seasonal autoregressive, differencing and moving-average
// orders, then the seasonal ones, whose lags are multiples of the period.
type ARIMAOrder struct {
	P  int `json:"p"`
	D  int `json:"d"`
	Q  int `json:"q"`
	SP int `json:"sp,omitempty"`
	SD int `json:"sd,omitempty"`
	SQ int `json:"sq,omitempty"`
}

// String writes the order as R does, (p,d,q)(P,D,Q)[m] without a
// seasonal part when the period is 1.
func (o ARIMAOrder) String(period int) string {
	s := fmt.Sprintf("(%d,%d,%d)", o.P, o.D, o.Q)
	if period > 1 {
		s += fmt.Sprintf("(%d,%d,%d)[%d]", o.SP, o.SD, o.SQ, period)
	}
	return s
}

// ARIMAModel is one entity's fitted ARIMA model. With B the backshift
// operator and w = (1-B)^d (1-B^m)^D y the differenced series, it is
//
//	(1 - AR(B)) (1 - SAR(B^m)) (w - Mean) = (1 + MA(B)) (1 + SMA(B^m)) e
//
// with e white noise of variance Sigma2. Mean is the mean of w: the
// intercept when d+D = 0, the drift times m^D when d+D = 1, and 0 without
// a constant.
type ARIMAModel struct {
	Order    ARIMAOrder `json:"order"`
	Period   int        `json:"period"`
	AR       []float64  `json:"ar,omitempty"`
	MA       []float64  `json:"ma,omitempty"`
	SAR      []float64  `json:"sar,omitempty"`
	SMA      []float64  `json:"sma,omitempty"`
	Constant bool       `json:"constant,omitempty"`
	Mean     float64    `json:"mean,omitempty"`
	Sigma2   float64    `json:"sigma2"`
	LogLik   float64    `json:"loglik"`
	AICc     float64    `json:"aicc"`
}

// Drift is the slope of the linear trend of a model with d+D = 1 and a
// constant, as R's forecast::Arima reports it; Mean otherwise.
func (md ARIMAModel) Drift() float64 {
	if md.Order.SD == 1 && md.Order.D == 0 {
		return md.Mean / float64(md.Period)
	}
	return md.Mean
}

// errARIMAFit reports a model R's arima would also refuse: an
// autoregression that is not stationary after the conditional sum of
// squares, or too few rows for the parameters.
var errARIMAFit = errors.New("baseline: arima model cannot be fitted")

// FitARIMA fits the ARIMA model of the given order to the values y, a
// season of period rows, with a constant (the mean of the differenced
// series) when constant is set, as R's arima does with method "CSS-ML":
// the conditional sum of squares gives the start (minimised with its
// exact gradient, see cssGradient, where R takes central differences), then the exact Gaussian
// likelihood from the Kalman filter (see armaFilter) is maximised, the
// autoregressions kept stationary by their partial autocorrelations
// (tanh of the parameters searched, as R's transform.pars) and the moving
// averages made invertible after fitting. It returns an error when the
// start's autoregression is not stationary, as R's arima does, or the
// rows are too few for the parameters and their AICc.
func FitARIMA(y []float64, period int, order ARIMAOrder, constant bool) (ARIMAModel, error) {
	return fitARIMA(y, period, order, constant, false)
}

// fitARIMA fits as FitARIMA, or by the conditional sum of squares alone
// when css is set (R's method "CSS"): then LogLik and AICc are those of
// R's forecast::auto.arima's approximation, without its offset.
func fitARIMA(y []float64, period int, order ARIMAOrder, constant, css bool) (ARIMAModel, error) {
	c := newCSSFit(y, period, order, constant, &cssWork{})
	if css {
		return c.cssModel()
	}
	return c.mlModel()
}

// cssFit is the conditional sum of squares' fit of one order, the first
// step of every fit: the spec, the differenced rows w, the start of the
// search, the point it reached and whether it converged; err is set
// when the rows are too few for the parameters.
type cssFit struct {
	md        ARIMAModel
	sp        armaSpec
	w         []float64
	start, x  []float64
	converged bool
	err       error
}

// newCSSFit differences y and minimises the conditional sum of squares
// of the order given from R's start: zero coefficients and the mean of
// the differenced rows. work holds the buffers, which fits made one
// after another may share.
func newCSSFit(y []float64, period int, order ARIMAOrder, constant bool, work *cssWork) cssFit {
	md := ARIMAModel{Order: order, Period: max(period, 1), Constant: constant}
	w := difference(y, order.D, order.SD, md.Period)
	work.valid = false
	sp := armaSpec{order: order, period: md.Period, constant: constant, work: work}
	c := cssFit{md: md, sp: sp, w: w}
	npar := sp.size()
	if len(w) <= npar+1 || len(w) <= sp.ncond() {
		c.err = fmt.Errorf("%w: %d differenced rows for %d parameters", errARIMAFit, len(w), npar)
		return c
	}
	c.sp.scale = 1
	if constant {
		if s := 10 * stddev(w) / math.Sqrt(float64(len(w))); s > 0 {
			c.sp.scale = s
		}
	}
	c.start = make([]float64, npar)
	if constant {
		c.start[npar-1] = mean(w) / c.sp.scale
	}
	c.x = c.start
	if npar > 0 {
		sp := c.sp
		c.x, _, c.converged = bfgs(func(u []float64) float64 { return sp.css(w, u) }, func(u, g []float64) { sp.cssGradient(w, u, g) }, c.start)
	}
	return c
}

// cssModel is the model of the conditional sum of squares' fit itself,
// R's method "CSS", whether or not its search converged.
func (c cssFit) cssModel() (ARIMAModel, error) {
	if c.err != nil {
		return c.md, c.err
	}
	md := c.sp.finishCSS(c.md, c.w, c.x)
	if math.IsInf(md.AICc, 0) || math.IsNaN(md.AICc) {
		return md, fmt.Errorf("%w: %d differenced rows are too few for the AICc of %d parameters", errARIMAFit, len(c.w), c.sp.size()+1)
	}
	return md, nil
}

// mlModel maximises the exact likelihood from the conditional sum of
// squares' point, or from its start if that search did not converge, as
// R's method "CSS-ML" does.
func (c cssFit) mlModel() (ARIMAModel, error) {
	if c.err != nil {
		return c.md, c.err
	}
	sp, w, md, npar := c.sp, c.w, c.md, c.sp.size()
	init := c.start
	if c.converged {
		init = c.x
	}
	ar, ma, sar, sma, mu := sp.unpack(init, false)
	if !stationary(ar, 1) || !stationary(sar, 1) {
		return md, fmt.Errorf("%w: non-stationary AR part from CSS", errARIMAFit)
	}
	init = sp.pack(ar, maInvert(ma), sar, maInvert(sma), mu, true)
	scratch := &mlScratch{}
	x, _, _ := bfgs(func(u []float64) float64 { v, _ := sp.mlWith(scratch, w, u, true); return v }, nil, init)
	ar, ma, sar, sma, mu = sp.unpack(x, true)
	x = sp.pack(ar, maInvert(ma), sar, maInvert(sma), mu, false)
	val, s2 := sp.ml(w, x, false)
	if math.IsInf(val, 0) || math.IsNaN(val) {
		return md, fmt.Errorf("%w: no finite likelihood", errARIMAFit)
	}
	md.AR, md.MA, md.SAR, md.SMA, md.Mean = sp.unpack(x, false)
	nu := float64(len(w))
	md.Sigma2 = s2
	md.LogLik = -0.5 * (2*nu*val + nu + nu*math.Log(2*math.Pi))
	md.AICc = aicc(-2*md.LogLik+2*float64(npar+1), npar+1, len(w))
	if math.IsInf(md.AICc, 0) || math.IsNaN(md.AICc) {
		return md, fmt.Errorf("%w: %d differenced rows are too few for the AICc of %d parameters", errARIMAFit, len(w), npar+1)
	}
	return md, nil
}

// aicc corrects the aic of a model with k parameters (its variance
// included) fitted on n differenced rows; +Inf when n <= k+1.
func aicc(aic float64, k, n int) float64 {
	if n-k-1 <= 0 {
		return math.Inf(1)
	}
	return aic + 2*float64(k*(k+1))/float64(n-k-1)
}

// finishCSS fills md from the conditional sum of squares' parameters u.
func (sp armaSpec) finishCSS(md ARIMAModel, w, u []float64) ARIMAModel {
	md.AR, md.MA, md.SAR, md.SMA, md.Mean = sp.unpack(u, false)
	ssq, nu := sp.cssSum(w, u)
	md.Sigma2 = ssq / float64(nu)
	n := float64(len(w))
	md.LogLik = -0.5 * (n*math.Log(md.Sigma2) + n + n*math.Log(2*math.Pi))
	k := sp.size() + 1
	md.AICc = aicc(n*math.Log(md.Sigma2)+2*float64(k), k, len(w))
	return md
}

// armaSpec lays out the parameters searched: the autoregression, the
// moving average, the seasonal autoregression, the seasonal moving
// average, then the mean over scale when there is a constant.
type armaSpec struct {
	order    ARIMAOrder
	period   int
	constant bool
	scale    float64
	// work holds the buffers of the conditional sum of squares and its
	// gradient from one call to the next; nil to allocate them at each
	// use.
	work *cssWork
}

// size is the number of parameters.
func (sp armaSpec) size() int {
	n := sp.order.P + sp.order.Q + sp.order.SP + sp.order.SQ
	if sp.constant {
		n++
	}
	return n
}

// ncond is the number of differenced rows the conditional sum of squares
// conditions on: the span of the expanded autoregression.
func (sp armaSpec) ncond() int { return sp.order.P + sp.order.SP*sp.period }

// unpack splits the parameters u; with trans the autoregressions are
// mapped from the tanh-transformed partial autocorrelations.
func (sp armaSpec) unpack(u []float64, trans bool) (ar, ma, sar, sma []float64, mu float64) {
	o := sp.order
	i := 0
	take := func(n int) []float64 {
		out := append([]float64(nil), u[i:i+n]...)
		i += n
		return out
	}
	ar, ma, sar, sma = take(o.P), take(o.Q), take(o.SP), take(o.SQ)
	if trans {
		ar, sar = fromPACF(tanhAll(ar)), fromPACF(tanhAll(sar))
	}
	if sp.constant {
		mu = u[i] * sp.scale
	}
	return ar, ma, sar, sma, mu
}

// pack is the inverse of unpack; with trans the autoregressions, which
// must be stationary, become their transformed partial autocorrelations.
func (sp armaSpec) pack(ar, ma, sar, sma []float64, mu float64, trans bool) []float64 {
	if trans {
		ar, sar = atanhAll(toPACF(ar)), atanhAll(toPACF(sar))
	}
	u := append(append(append(append([]float64(nil), ar...), ma...), sar...), sma...)
	if sp.constant {
		u = append(u, mu/sp.scale)
	}
	return u
}

// polys returns the expanded autoregression and moving average and the
// mean of the parameters u.
func (sp armaSpec) polys(u []float64, trans bool) (phi, theta []float64, mu float64) {
	ar, ma, sar, sma, mu := sp.unpack(u, trans)
	return expand(ar, sar, sp.period, -1), expand(ma, sma, sp.period, 1), mu
}

// css is R's objective for the conditional sum of squares, half the log
// of the mean squared residual.
func (sp armaSpec) css(w, u []float64) float64 {
	ssq, nu := sp.cssSum(w, u)
	v := 0.5 * math.Log(ssq/float64(nu))
	if math.IsNaN(v) {
		return math.Inf(1)
	}
	return v
}

// unpackInto splits the parameters u (untransformed) into buffers of c,
// which it also fills with the expanded polynomials c.phi and c.theta,
// without allocating once the buffers have grown.
func (sp armaSpec) unpackInto(c *cssWork, u []float64) (ar, ma, sar, sma []float64, mu float64) {
	o := sp.order
	i := 0
	take := func(buf []float64, n int) []float64 {
		buf = append(buf[:0], u[i:i+n]...)
		i += n
		return buf
	}
	c.ar, c.ma, c.sar, c.sma = take(c.ar, o.P), take(c.ma, o.Q), take(c.sar, o.SP), take(c.sma, o.SQ)
	if sp.constant {
		mu = u[i] * sp.scale
	}
	c.phi = expandInto(c.phi, c.ar, c.sar, sp.period, -1)
	c.theta = expandInto(c.theta, c.ma, c.sma, sp.period, 1)
	return c.ar, c.ma, c.sar, c.sma, mu
}

// ml is R's objective for the exact likelihood, half of log(s2) plus the
// mean log prediction variance, with s2 the innovation variance that
// maximises the likelihood, which it also returns.
func (sp armaSpec) ml(w, u []float64, trans bool) (float64, float64) {
	return sp.mlWith(nil, w, u, trans)
}

// mlWith is ml with the buffers of s (nil: new ones), the same value.
func (sp armaSpec) mlWith(s *mlScratch, w, u []float64, trans bool) (float64, float64) {
	phi, theta, mu := sp.polysWith(s, u, trans)
	k, err := newARMAFilterWith(s, phi, theta)
	if err != nil {
		return math.Inf(1), math.NaN()
	}
	var ssq, sumlog float64
	// The prediction variances are at least 1 (the innovation variance):
	// their product is kept below 1e100 and its logarithm taken then and
	// at the end, in place of one logarithm per row. Once the filter has
	// settled (see armaFilter.settle), the rest of the rows take its
	// steady loop.
	prod := 1.0
	for t, v := range w {
		if k.settled {
			f := k.p[0]
			ssq += k.steady(w[t:], mu) / f
			sumlog += float64(len(w)-t) * math.Log(f)
			break
		}
		e, f := k.update(v - mu)
		ssq += e * e / f
		if prod *= f; prod > 1e100 {
			sumlog, prod = sumlog+math.Log(prod), 1
		}
	}
	sumlog += math.Log(prod)
	nu := float64(len(w))
	s2 := ssq / nu
	val := 0.5 * (math.Log(s2) + sumlog/nu)
	if math.IsNaN(val) {
		return math.Inf(1), s2
	}
	return val, s2
}

// difference returns (1-B)^d (1-B^m)^sd y, the rows from d + sd*m on.
func difference(y []float64, d, sd, m int) []float64 {
	c := diffPoly(d, sd, m)
	nd := len(c) - 1
	if len(y) <= nd {
		return nil
	}
	w := make([]float64, len(y)-nd)
	for t := range w {
		for i, ci := range c {
			w[t] += ci * y[t+nd-i]
		}
	}
	return w
}

// diffPoly returns the coefficients of (1-B)^d (1-B^m)^sd, from B^0.
func diffPoly(d, sd, m int) []float64 {
	c := []float64{1}
	mul := func(lag int) {
		next := make([]float64, len(c)+lag)
		copy(next, c)
		for i, v := range c {
			next[i+lag] -= v
		}
		c = next
	}
	for range d {
		mul(1)
	}
	for range sd {
		mul(m)
	}
	return c
}

// stddev returns the sample standard deviation of x, at least two values.
func stddev(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	xm := mean(x)
	var s float64
	for _, v := range x {
		s += (v - xm) * (v - xm)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

func tanhAll(x []float64) []float64 {
	for i, v := range x {
		x[i] = math.Tanh(v)
	}
	return x
}

func atanhAll(x []float64) []float64 {
	for i, v := range x {
		x[i] = math.Atanh(v)
	}
	return x
}

// ARIMALogLik returns the exact Gaussian log-likelihood of the values y
// under md's parameters, the innovation variance concentrated out (set to
// the value that maximises it), as FitARIMA maximises it.
func ARIMALogLik(md ARIMAModel, y []float64) float64 {
	sp := armaSpec{order: md.Order, period: max(md.Period, 1), constant: md.Constant, scale: 1}
	w := difference(y, md.Order.D, md.Order.SD, sp.period)
	val, _ := sp.ml(w, sp.pack(md.AR, md.MA, md.SAR, md.SMA, md.Mean, false), false)
	nu := float64(len(w))
	return -0.5 * (2*nu*val + nu + nu*math.Log(2*math.Pi))
}
