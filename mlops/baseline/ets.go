package baseline

import (
	"github.com/mallard/mallard/mlops/series"
)

// ETS is additive Holt-Winters exponential smoothing with an additive
// damped trend, the state space model ETS(A,Ad,A) of Hyndman &
// Athanasopoulos, Forecasting: Principles and Practice (3rd ed.), section
// 8.6, or ETS(A,Ad,N) when Season is 1. Each entity has its own
// parameters and initial states. With m = Season, the level l, the trend
// b and the seasonal indices s run over each row t as
//
//	yhat = l + phi*b + s[t mod m]     (the one-step forecast of row t)
//	e    = y(t) - yhat
//	l    = l + phi*b + alpha*e
//	b    = phi*b + beta*e
//	s[t mod m] += gamma*e
//
// and the forecast h = k+1 rows past the last row filtered is
// l + (phi + ... + phi^h)*b + s[(origin+k) mod m], the latest index of
// that row's phase. Beta is the state space smoothing parameter, alpha
// times the beta* of the component form.
type ETS struct {
	// Season is the number of rows in a season, at least 1.
	Season int
	// Params are each entity's smoothing parameters.
	Params []ETSParams
	// Init are each entity's states before row 0.
	Init []ETSState
}

// ETSParams are an entity's smoothing parameters. Fitted ones satisfy
// 0 < Alpha < 1, 0 < Beta < Alpha, 0 < Gamma < 1-Alpha and
// 0.8 <= Phi <= 0.98, the ranges of fpp3 and R's forecast::ets; Gamma is 0
// when the season is 1.
type ETSParams struct {
	Alpha, Beta, Gamma, Phi float64
}

// ETSState is an entity's level, trend and seasonal indices.
type ETSState struct {
	Level, Trend float64
	// Seasonal holds Season indices: Seasonal[j] is the index of the next
	// row whose position in the season is j. It is [0] when Season is 1.
	Seasonal []float64
}

// Name returns "ets".
func (*ETS) Name() string { return string(KindETS) }

// Predict writes the one-step forecast of row t into dst. Like Forecast
// it filters rows 0..t-1, so it costs time in proportion to t.
func (e *ETS) Predict(m series.Matrix, t int, dst []float64) {
	e.Forecast(m, t, [][]float64{dst})
}

// Forecast filters rows 0..origin-1 of m from the initial states with the
// fitted parameters, without refitting them, and writes into dst the
// forecasts of rows origin.. from the states reached. origin may be 0, to
// forecast from the initial states.
func (e *ETS) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 0, dst)
	y := make([]float64, origin)
	s := make([]float64, e.Season)
	for n, p := range e.Params {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		st := e.Init[n]
		st.Seasonal = s
		copy(s, e.Init[n].Seasonal)
		p.filter(&st, y)
		damp, sum := 1.0, 0.0
		for k, row := range dst {
			damp *= p.Phi
			sum += damp
			row[n] = st.Level + sum*st.Trend + s[(origin+k)%e.Season]
		}
	}
}

// filter runs the smoothing equations over the values y of one entity,
// the first of them at a row whose position in the season is 0, updating
// st in place. It returns the sum of the squared one-step errors.
func (p ETSParams) filter(st *ETSState, y []float64) float64 {
	season := len(st.Seasonal)
	l, b := st.Level, st.Trend
	var sse float64
	for t, v := range y {
		j := t % season
		trend := p.Phi * b
		e := v - (l + trend + st.Seasonal[j])
		sse += e * e
		l += trend + p.Alpha*e
		b = trend + p.Beta*e
		st.Seasonal[j] += p.Gamma * e
	}
	st.Level, st.Trend = l, b
	return sse
}
