package baseline

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// ARIMA is automatic ARIMA, Hyndman and Khandakar (2008) as R's
// forecast::auto.arima runs it: each entity has its own seasonal ARIMA
// model, its differencing, orders and constant chosen and its parameters
// fitted on the training rows by AutoARIMA. Forecasts are the means of
// the model's state space form: the differenced series is filtered from
// its stationary start with the fitted parameters fixed, its forecasts
// projected, and the differences undone.
type ARIMA struct {
	// Season is the number of rows in a season, at least 1.
	Season int `json:"season"`
	// Models are each entity's fitted models.
	Models []ARIMAModel `json:"models"`
}

// fitARIMAs fits an ARIMA model with the given season, per entity, on
// rows 0..rows-1 of m. It returns an error wrapping ErrNonFinite if the
// training rows hold NaN or infinite values.
func fitARIMAs(m series.Matrix, rows, season int) (*ARIMA, error) {
	if err := checkFinite(m, rows); err != nil {
		return nil, err
	}
	a := &ARIMA{Season: season, Models: make([]ARIMAModel, m.N)}
	y := make([]float64, rows)
	for n := range m.N {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		md, err := AutoARIMA(y, season)
		if err != nil {
			return nil, fmt.Errorf("fit arima of entity %d: %w", n, err)
		}
		a.Models[n] = md
	}
	return a, nil
}

// Name returns "arima".
func (*ARIMA) Name() string { return string(KindARIMA) }

// Predict writes the one-step forecast of row t into dst. Like Forecast
// it filters rows 0..t-1, so it costs time in proportion to t.
func (a *ARIMA) Predict(m series.Matrix, t int, dst []float64) {
	a.Forecast(m, t, [][]float64{dst})
}

// Forecast filters rows 0..origin-1 of m with each entity's fitted
// parameters, without refitting them, and writes into dst the forecasts
// of rows origin..; origin must be at least 1. An entity whose
// differences need more rows than origin leaves (d + D*season) is
// forecast by its last value.
func (a *ARIMA) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 1, dst)
	y := make([]float64, origin+len(dst))
	fc := make([]float64, len(dst))
	for n := range a.Models {
		md := &a.Models[n]
		for t := range origin {
			y[t] = m.Values[t*m.N+n]
		}
		md.forecast(y[:origin], fc)
		for k, row := range dst {
			row[n] = fc[k]
		}
	}
}

// OneStep writes the one-step forecasts of rows from..m.T-1 into dst,
// filtering the history once; from must be at least 1.
func (a *ARIMA) OneStep(m series.Matrix, from int, dst []float64) {
	y := make([]float64, m.T)
	pred := make([]float64, m.T)
	for n := range a.Models {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		a.Models[n].oneStep(y, pred)
		for t := from; t < m.T; t++ {
			dst[(t-from)*m.N+n] = pred[t]
		}
	}
}

// filter returns the Kalman filter of the model's ARMA part at its
// stationary start, or that of white noise if the parameters have no
// stationary start (a model decoded, not fitted).
func (md *ARIMAModel) filter() *armaFilter {
	period := max(md.Period, 1)
	k, err := newARMAFilter(expand(md.AR, md.SAR, period, -1), expand(md.MA, md.SMA, period, 1))
	if err != nil {
		k, _ = newARMAFilter(nil, nil)
	}
	return k
}

// oneStep writes into pred[t], for t = 1..len(y)-1, the forecast of y[t]
// from y[:t]; rows before the differences are defined take the last
// value. pred[0] is y[0].
func (md *ARIMAModel) oneStep(y, pred []float64) {
	c := diffPoly(md.Order.D, md.Order.SD, max(md.Period, 1))
	nd := len(c) - 1
	k := md.filter()
	for t := range y {
		switch {
		case t == 0:
			pred[t] = y[0]
		case t < nd:
			pred[t] = y[t-1]
		default:
			p := md.Mean + k.next()
			for i := 1; i <= nd; i++ {
				p -= c[i] * y[t-i]
			}
			pred[t] = p
		}
		if t >= nd {
			var w float64
			for i, ci := range c {
				w += ci * y[t-i]
			}
			k.update(w - md.Mean)
		}
	}
}

// forecast writes into fc the forecasts of the len(fc) values after y,
// which holds at least one value; y must have room for len(fc) more
// values past its length, which forecast overwrites.
func (md *ARIMAModel) forecast(y, fc []float64) {
	c := diffPoly(md.Order.D, md.Order.SD, max(md.Period, 1))
	nd := len(c) - 1
	origin := len(y)
	if origin <= nd {
		for k := range fc {
			fc[k] = y[origin-1]
		}
		return
	}
	k := md.filter()
	for t := nd; t < origin; t++ {
		var w float64
		for i, ci := range c {
			w += ci * y[t-i]
		}
		k.update(w - md.Mean)
	}
	k.forecast(fc)
	full := y[:origin+len(fc)]
	for h := range fc {
		t := origin + h
		p := md.Mean + fc[h]
		for i := 1; i <= nd; i++ {
			p -= c[i] * full[t-i]
		}
		full[t], fc[h] = p, p
	}
}

// ARIMAOneStepMSE fits AutoARIMA with the given period on the first train
// values of y and returns the mean squared error of its one-step
// forecasts of the rest, each from the values before it with the fitted
// parameters fixed, and the model. It is R's
// mean((y - fitted(Arima(y, model = auto.arima(y[1:train]))))^2) over
// the rows after train, the comparison of BenchmarkARIMAParity.
func ARIMAOneStepMSE(y []float64, period, train int) (float64, ARIMAModel, error) {
	if train < 1 || train >= len(y) {
		return 0, ARIMAModel{}, fmt.Errorf("baseline: train %d rows of %d leaves no test rows", train, len(y))
	}
	md, err := AutoARIMA(y[:train], period)
	if err != nil {
		return 0, md, err
	}
	pred := make([]float64, len(y))
	md.oneStep(y, pred)
	var sum float64
	for t := train; t < len(y); t++ {
		sum += (y[t] - pred[t]) * (y[t] - pred[t])
	}
	return sum / float64(len(y)-train), md, nil
}
