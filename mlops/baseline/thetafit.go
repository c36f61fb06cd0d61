package baseline

import (
	"math"

	"github.com/mallard/mallard/mlops/series"
)

// The range searched for the smoothing parameter of Theta, that of R's
// forecast::ses, and the tolerance of the search.
const (
	thetaAlphaMin = 1e-4
	thetaAlphaMax = 0.9999
	thetaAlphaTol = 1e-9
	// thetaAlphaGrid is how many points of the range are tried before the
	// search refines the best, so that a profile with several minima
	// yields its lowest.
	thetaAlphaGrid = 64
	// thetaSeasonZ is qnorm(0.95), the one-sided 95% normal quantile of
	// thetaf's seasonality test: a test at the 90% level of |acf|.
	thetaSeasonZ = 1.6448536269514722
	// thetaMinFactor is the smallest multiplicative factor thetaf divides
	// by; a season with a smaller one is left out.
	thetaMinFactor = 1e-4
)

// fitTheta fits a Theta model per entity on rows 0..rows-1 of m as R's
// forecast::thetaf does with the series given frequency season, with one
// departure for series that are not positive:
//
//   - The entity is seasonal when season > 1, its training rows vary,
//     rows > 2*season, and its autocorrelation at lag season passes
//     thetaf's test |r(m)| > qnorm(0.95)*sqrt((1 + 2*sum_{k<m} r(k)^2)/rows)
//     (see seasonalTest).
//   - A seasonal entity whose training rows are all positive is adjusted
//     by classical multiplicative decomposition, as in thetaf, unless a
//     factor is below 1e-4 in magnitude, where thetaf drops the season.
//     One with a zero or negative row (standardised data usually has
//     them) is adjusted by classical additive decomposition instead:
//     dividing by factors of a series that crosses zero is meaningless.
//   - Alpha and Level0 minimise the sum of squared one-step errors of
//     simple exponential smoothing of the adjusted rows, ses() with
//     initial = "optimal" (see fitSES); Drift is half the least-squares
//     slope of the adjusted rows.
//
// rows >= 3*season unless season is 1, and rows >= 2. fitTheta returns an
// error wrapping ErrNonFinite if the training rows hold NaN or infinite
// values.
func fitTheta(m series.Matrix, rows, season int) (*Theta, error) {
	if err := checkFinite(m, rows); err != nil {
		return nil, err
	}
	th := &Theta{
		Season:         season,
		Alpha:          make([]float64, m.N),
		Drift:          make([]float64, m.N),
		Seasonal:       series.Matrix{T: season, N: m.N, Values: make([]float64, season*m.N)},
		Level0:         make([]float64, m.N),
		Multiplicative: make([]bool, m.N),
	}
	y := make([]float64, rows)
	for n := range m.N {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		fig, mult := thetaSeason(y, season)
		for j, s := range fig {
			th.Seasonal.Values[j*m.N+n] = s
		}
		th.Multiplicative[n] = mult
		for t := range y {
			y[t] = th.adjust(y[t], t, n)
		}
		th.Drift[n] = slope(y) / 2
		th.Alpha[n], th.Level0[n] = fitSES(y)
	}
	return th, nil
}

// thetaSeason returns the seasonal indices fitTheta adjusts the training
// values y of one entity with, and whether they are factors: season zeros
// and false for an entity it finds without a season.
func thetaSeason(y []float64, season int) (fig []float64, multiplicative bool) {
	none := make([]float64, season)
	if season < 2 || len(y) <= 2*season || !seasonalTest(y, season) {
		return none, false
	}
	if !positive(y) {
		return additiveSeasonal(y, season), false
	}
	fig = multiplicativeSeasonal(y, season)
	for _, f := range fig {
		if math.Abs(f) < thetaMinFactor {
			return none, false
		}
	}
	return fig, true
}

// seasonalTest reports whether thetaf's 90% test finds a season of m rows
// in y: |r(m)| > qnorm(0.95)*sqrt((1 + 2*sum_{k=1}^{m-1} r(k)^2)/len(y)),
// r being the sample autocorrelation of y (not of its differences). It is
// false for a y that does not vary.
func seasonalTest(y []float64, m int) bool {
	var sum float64
	for k := 1; k < m; k++ {
		r := acfAt(y, k)
		sum += r * r
	}
	r := acfAt(y, m)
	if math.IsNaN(r) {
		return false
	}
	return math.Abs(r) > thetaSeasonZ*math.Sqrt((1+2*sum)/float64(len(y)))
}

// positive reports whether every value of y is above zero.
func positive(y []float64) bool {
	for _, v := range y {
		if v <= 0 {
			return false
		}
	}
	return true
}

// fitSES returns the smoothing parameter alpha in [1e-4, 0.9999] and the
// initial level l0 that minimise the sum of squared one-step errors of
// simple exponential smoothing of y, the level before y[0] being l0: the
// criterion of R's ses() (ets(y, "ANN", opt.crit = "mse")). For a given
// alpha the errors are linear in l0, so l0 is solved for exactly
// (sesProfile); alpha is the best of a grid over the range refined by
// golden-section search between its neighbours, the global minimum to
// within the grid's resolution where ses()'s Nelder-Mead may stop at a
// local one.
func fitSES(y []float64) (alpha, l0 float64) {
	f := func(a float64) float64 { sse, _ := sesProfile(y, a); return sse }
	step := (thetaAlphaMax - thetaAlphaMin) / float64(thetaAlphaGrid-1)
	best, bestSSE := 0, math.Inf(1)
	for i := range thetaAlphaGrid {
		if sse := f(thetaAlphaMin + float64(i)*step); sse < bestSSE {
			best, bestSSE = i, sse
		}
	}
	lo := thetaAlphaMin + float64(max(best-1, 0))*step
	hi := thetaAlphaMin + float64(min(best+1, thetaAlphaGrid-1))*step
	alpha = goldenMin(f, lo, hi, thetaAlphaTol)
	if f(alpha) > bestSSE { // the search left the grid's best point
		alpha = thetaAlphaMin + float64(best)*step
	}
	_, l0 = sesProfile(y, alpha)
	return alpha, l0
}

// sesProfile returns the least sum of squared one-step errors of simple
// exponential smoothing of y with parameter alpha over every initial
// level, and that level. The forecast of y[t] is c(t) + (1-alpha)^t * l0,
// c(t) being the forecast from l0 = 0, so the best l0 is
// sum w(t)(y(t)-c(t)) / sum w(t)^2 with w(t) = (1-alpha)^t.
func sesProfile(y []float64, alpha float64) (sse, l0 float64) {
	var c, w, see, swe, sww float64 = 0, 1, 0, 0, 0
	for _, v := range y {
		e := v - c
		see += e * e
		swe += w * e
		sww += w * w
		c += alpha * e
		w *= 1 - alpha
	}
	return see - swe*swe/sww, swe / sww
}

// slope returns the least-squares slope of y against 0, 1, ...; y holds at
// least two values.
func slope(y []float64) float64 {
	tm := float64(len(y)-1) / 2
	ym := mean(y)
	var sxy, sxx float64
	for t, v := range y {
		dt := float64(t) - tm
		sxy += dt * (v - ym)
		sxx += dt * dt
	}
	return sxy / sxx
}

// goldenMin returns a point of [lo, hi] within tol of a minimum of f,
// found by golden-section search; for an f that is not unimodal on the
// interval it is a local minimum.
func goldenMin(f func(float64) float64, lo, hi, tol float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	a, b := hi-r*(hi-lo), lo+r*(hi-lo)
	fa, fb := f(a), f(b)
	for hi-lo > tol {
		if fa <= fb {
			hi, b, fb = b, a, fa
			a = hi - r*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + r*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}
