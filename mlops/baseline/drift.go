package baseline

import (
	"fmt"
	"math"

	"github.com/mallard/mallard/mlops/series"
)

// Drift forecasts each entity along the line through its first and last
// training values, from the last value before the origin: the forecast of
// row origin+k for entity n is
//
//	m.At(origin-1, n) + (k+1) * Slope[n]
//
// the drift method of Hyndman & Athanasopoulos, Forecasting: Principles
// and Practice (3rd ed.), section 5.2. The slope is fixed by the training
// rows alone, so later rows move the level but never the slope.
type Drift struct {
	// Slope is (y[rows-1] - y[0]) / (rows-1) over each entity's training
	// rows 0..rows-1.
	Slope []float64
}

// fitDrift returns the Drift of the first rows of m, rows >= 2. It returns
// an error wrapping ErrNonFinite if the first or last of them holds a NaN
// or infinite value.
func fitDrift(m series.Matrix, rows int) (*Drift, error) {
	first, last := m.Row(0), m.Row(rows-1)
	slope := make([]float64, m.N)
	for n := range slope {
		slope[n] = (last[n] - first[n]) / float64(rows-1)
		if math.IsNaN(slope[n]) || math.IsInf(slope[n], 0) {
			return nil, fmt.Errorf("%w: entity %d runs from %v to %v", ErrNonFinite, n, first[n], last[n])
		}
	}
	return &Drift{Slope: slope}, nil
}

// Name returns "drift".
func (*Drift) Name() string { return string(KindDrift) }

// Predict writes row t-1 of m plus the slope into dst.
func (d *Drift) Predict(m series.Matrix, t int, dst []float64) {
	d.Forecast(m, t, [][]float64{dst})
}

// Forecast writes the drift forecasts of rows origin.. into dst; it reads
// row origin-1 only.
func (d *Drift) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 1, dst)
	level := m.Row(origin - 1)
	for k, row := range dst {
		for n, v := range level {
			row[n] = v + float64(k+1)*d.Slope[n]
		}
	}
}
