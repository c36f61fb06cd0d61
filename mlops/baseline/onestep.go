package baseline

import (
	"github.com/mallard/mallard/mlops/series"
)

// OneStepper is a Forecaster that can give its one-step forecasts of many
// consecutive rows in one pass over the history, where calling Forecast
// for each row would filter the history from row 0 again every time.
type OneStepper interface {
	Forecaster
	// OneStep writes into dst, row-major, the one-step forecast of each row
	// from..m.T-1 of m: what Forecast(m, t, one row) gives for row t.
	OneStep(m series.Matrix, from int, dst []float64)
}

// OneStep writes the one-step forecasts of rows from..m.T-1 into dst,
// filtering the history once.
func (e *ETS) OneStep(m series.Matrix, from int, dst []float64) {
	s := make([]float64, e.Season)
	for n, p := range e.Params {
		l, b := e.Init[n].Level, e.Init[n].Trend
		copy(s, e.Init[n].Seasonal)
		for t := range m.T {
			j := t % e.Season
			trend := p.Phi * b
			yhat := l + trend + s[j]
			if t >= from {
				dst[(t-from)*m.N+n] = yhat
			}
			err := m.Values[t*m.N+n] - yhat
			l += trend + p.Alpha*err
			b = trend + p.Beta*err
			s[j] += p.Gamma * err
		}
	}
}
