package baseline

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// Recursive returns a Forecaster that forecasts with the one-step model p,
// taking each step's prediction as the observed row for the next step. p
// must read at most span rows before the row it predicts. A forecast
// copies the span rows before the origin into a scratch matrix of
// span+len(dst)-1 rows and predicts into it, so it never copies m and
// costs memory in proportion to (span+len(dst)) * m.N however long m is.
// The forecaster's Name is p's; Forecast panics as Model.Predict does if p
// reads more than span rows back. Recursive panics if span < 0.
func Recursive(p Model, span int) Forecaster {
	if span < 0 {
		panic(fmt.Sprintf("baseline: recursive forecast over %d rows", span))
	}
	return recursive{model: p, span: span}
}

// recursive is the Forecaster returned by Recursive.
type recursive struct {
	model Model
	span  int
}

// Name returns the one-step model's name.
func (r recursive) Name() string { return r.model.Name() }

// Forecast predicts row origin+k from the rows before origin and the
// predictions of rows origin..origin+k-1.
func (r recursive) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, r.span, dst)
	if len(dst) == 0 {
		return
	}
	n := m.N
	buf := make([]float64, (r.span+len(dst)-1)*n)
	copy(buf, m.Values[(origin-r.span)*n:origin*n])
	for k, row := range dst {
		t := r.span + k
		r.model.Predict(series.Matrix{T: t, N: n, Values: buf[: t*n : t*n]}, t, row)
		if k+1 < len(dst) {
			copy(buf[t*n:(t+1)*n], row)
		}
	}
}
