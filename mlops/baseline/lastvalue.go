package baseline

import "github.com/mallard/mallard/mlops/series"

// LastValue predicts that each entity keeps its value from the previous
// row. It has nothing to fit.
type LastValue struct{}

// Name returns "last_value".
func (LastValue) Name() string { return string(KindLastValue) }

// Predict copies row t-1 of m into dst.
func (LastValue) Predict(m series.Matrix, t int, dst []float64) {
	checkDst(dst, m.N)
	copy(dst, m.Row(t-1))
}

// Forecast copies row origin-1 of m into every row of dst.
func (LastValue) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 1, dst)
	for _, row := range dst {
		copy(row, m.Row(origin-1))
	}
}
