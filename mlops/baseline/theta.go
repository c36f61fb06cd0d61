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
	thetaAlphaTol = 1e-6
)

// Theta is the Theta method of Assimakopoulos & Nikolopoulos (2000) in the
// form Hyndman & Billah (2003) showed it to be: simple exponential
// smoothing with a drift of half the slope of a linear trend. Per entity,
// with the seasonal index s removed (d(t) = y(t) - s(t)), the level l
// starts at d(0) and runs over rows 1..origin-1 as
//
//	l = l + Alpha*(d(t) - l)
//
// and the forecast of row origin+k, with n = origin rows seen, is
//
//	l + Drift*(k + (1 - (1-Alpha)^n)/Alpha) + s(origin+k)
//
// as in R's forecast::thetaf. Where that seasonally adjusts
// multiplicatively, Theta subtracts additive indices: the data it meets
// are standardised and may be negative.
type Theta struct {
	// Season is the number of rows in a season, at least 1.
	Season int
	// Alpha is each entity's smoothing parameter, in [1e-4, 0.9999].
	Alpha []float64
	// Drift is half the least-squares slope of each entity's seasonally
	// adjusted training rows.
	Drift []float64
	// Seasonal holds the seasonal indices, Season x N: row j holds each
	// entity's index for the rows t = j (mod Season). It is zero when
	// Season is 1.
	Seasonal series.Matrix
}

// fitTheta fits a Theta model with the given season, per entity, on rows
// 0..rows-1 of m; rows >= 3*season unless season is 1, and rows >= 2.
// With a season above 1 the indices come from classical additive
// decomposition of the training rows (see additiveSeasonal). Alpha
// minimises the sum of squared one-step errors over the training rows,
// found by golden-section search. fitTheta returns an error wrapping
// ErrNonFinite if the training rows hold NaN or infinite values.
func fitTheta(m series.Matrix, rows, season int) (*Theta, error) {
	if err := checkFinite(m, rows); err != nil {
		return nil, err
	}
	th := &Theta{
		Season:   season,
		Alpha:    make([]float64, m.N),
		Drift:    make([]float64, m.N),
		Seasonal: series.Matrix{T: season, N: m.N, Values: make([]float64, season*m.N)},
	}
	y := make([]float64, rows)
	for n := range m.N {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		if season > 1 {
			for j, s := range additiveSeasonal(y, season) {
				th.Seasonal.Values[j*m.N+n] = s
			}
			for t := range y {
				y[t] -= th.Seasonal.Values[t%season*m.N+n]
			}
		}
		th.Drift[n] = slope(y) / 2
		th.Alpha[n] = goldenMin(func(a float64) float64 { return sesError(y, a) }, thetaAlphaMin, thetaAlphaMax, thetaAlphaTol)
	}
	return th, nil
}

// Name returns "theta".
func (*Theta) Name() string { return string(KindTheta) }

// Predict writes the one-step forecast of row t into dst. Like Forecast
// it smooths rows 0..t-1, so it costs time in proportion to t.
func (th *Theta) Predict(m series.Matrix, t int, dst []float64) {
	th.Forecast(m, t, [][]float64{dst})
}

// Forecast smooths rows 0..origin-1 of m with the fitted parameters,
// without refitting them, and writes into dst the forecasts of rows
// origin..; origin must be at least 1.
func (th *Theta) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 1, dst)
	for n, alpha := range th.Alpha {
		l := m.Values[n] - th.Seasonal.Values[n]
		for t := 1; t < origin; t++ {
			d := m.Values[t*m.N+n] - th.Seasonal.Values[t%th.Season*m.N+n]
			l += alpha * (d - l)
		}
		start := (1 - math.Pow(1-alpha, float64(origin))) / alpha
		for k, row := range dst {
			s := th.Seasonal.Values[(origin+k)%th.Season*m.N+n]
			row[n] = l + th.Drift[n]*(float64(k)+start) + s
		}
	}
}

// sesError returns the sum of squared one-step errors of simple
// exponential smoothing of y with parameter alpha, the level starting at
// y[0].
func sesError(y []float64, alpha float64) float64 {
	l := y[0]
	var sse float64
	for _, v := range y[1:] {
		e := v - l
		sse += e * e
		l += alpha * e
	}
	return sse
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
