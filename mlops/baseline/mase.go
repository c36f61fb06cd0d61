package baseline

import (
	"fmt"
	"math"

	"github.com/mallard/mallard/mlops/series"
)

// MASEScale returns, per entity, the scale of the mean absolute scaled
// error of Hyndman & Koehler (2006): the in-sample mean absolute error of
// the seasonal naive forecast over rows 0..rows-1 of m,
//
//	sum_{t=season}^{rows-1} |m.At(t, n) - m.At(t-season, n)| / (rows-season)
//
// A forecast error divided by it is scaled error. Where the scale is zero
// (the entity repeats its season exactly, as a constant does) or
// undefined (rows <= season), MASEScale returns NaN for the entity, so
// that its scaled errors are NaN and a caller averaging them must skip
// it rather than divide by zero. It panics if rows > m.T or season < 1.
func MASEScale(m series.Matrix, rows, season int) []float64 {
	if season < 1 || rows > m.T {
		panic(fmt.Sprintf("baseline: MASE scale of %d rows of %d with season %d", rows, m.T, season))
	}
	scale := make([]float64, m.N)
	for n := range scale {
		var sum float64
		for t := season; t < rows; t++ {
			sum += math.Abs(m.At(t, n) - m.At(t-season, n))
		}
		scale[n] = sum / float64(rows-season)
		if rows <= season || scale[n] == 0 {
			scale[n] = math.NaN()
		}
	}
	return scale
}
