package baseline

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// KindMean names an equal-weight combination of fitted forecasters (see
// Mean). It is not among Kinds: FitForecaster cannot fit it alone, since
// its members are chosen by whoever combines them.
const KindMean Kind = "combination"

// Mean forecasts the average of its members' one-step forecasts, with
// equal weights, recursively: each step's average is taken as the next
// row's value, as a network anchored to the combination feeds its own
// forecasts back. Combining a few good forecasts is a strong benchmark in
// its own right: in the M4 competition the combination of simple
// exponential smoothing, Holt's and the damped trend ("Comb") beat most
// submitted methods (Makridakis, Spiliotis and Assimakopoulos 2020). Mean
// reads the rows its members read.
type Mean struct {
	Members []Forecaster
}

// Name is KindMean.
func (c *Mean) Name() string { return string(KindMean) }

// Forecast writes the recursive average of the members' forecasts into
// dst: step k+1 reads the averages of steps 1..k as rows.
func (c *Mean) Forecast(m series.Matrix, origin int, dst [][]float64) {
	for _, row := range dst {
		checkDst(row, m.N)
	}
	if origin > m.T {
		panic(fmt.Sprintf("baseline: forecast origin %d out of range for %d rows", origin, m.T))
	}
	n := m.N
	buf := make([]float64, (origin+len(dst))*n)
	copy(buf, m.Values[:origin*n])
	one := Rows(1, n)
	w := 1 / float64(len(c.Members))
	for k, row := range dst {
		t := origin + k
		h := series.Matrix{T: t, N: n, Values: buf[:t*n]}
		clear(row)
		for _, f := range c.Members {
			f.Forecast(h, t, one)
			for i, v := range one[0] {
				row[i] += w * v
			}
		}
		copy(buf[t*n:(t+1)*n], row)
	}
}

// OneStep writes the average of the members' one-step forecasts of rows
// from..m.T-1 into dst, row-major; a member that is a OneStepper filters
// the history once.
func (c *Mean) OneStep(m series.Matrix, from int, dst []float64) {
	clear(dst)
	tmp := make([]float64, len(dst))
	w := 1 / float64(len(c.Members))
	for _, f := range c.Members {
		if o, ok := f.(OneStepper); ok {
			o.OneStep(m, from, tmp)
		} else {
			for t := from; t < m.T; t++ {
				f.Forecast(m, t, [][]float64{tmp[(t-from)*m.N : (t-from+1)*m.N]})
			}
		}
		for j, v := range tmp {
			dst[j] += w * v
		}
	}
}
