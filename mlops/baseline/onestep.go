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
	y := make([]float64, m.T)
	pred := make([]float64, m.T)
	for n, p := range e.Params {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		st := e.Init[n]
		st.Seasonal = s
		copy(s, e.Init[n].Seasonal)
		e.form(n).filter(p, &st, y, pred)
		for t := from; t < m.T; t++ {
			dst[(t-from)*m.N+n] = pred[t]
		}
	}
}
