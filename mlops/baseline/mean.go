package baseline

import (
	"fmt"
	"slices"

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
//
// With Median set it forecasts the median of the members' forecasts
// instead (the middle one of an odd number, the mean of the two middle
// ones of an even number), the operator of the "SCUM" combination
// (Petropoulos and Svetunkov 2020), which one failing member cannot carry.
type Mean struct {
	Members []Forecaster
	Median  bool `json:",omitempty"`
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
	each := make([][]float64, len(c.Members))
	for k, row := range dst {
		t := origin + k
		h := series.Matrix{T: t, N: n, Values: buf[:t*n]}
		for j, f := range c.Members {
			if each[j] == nil {
				each[j] = make([]float64, n)
			}
			f.Forecast(h, t, [][]float64{each[j]})
		}
		c.combine(each, row)
		copy(buf[t*n:(t+1)*n], row)
	}
}

// combine writes the members' combined forecasts into dst: each[j] is
// member j's forecasts, aligned with dst.
func (c *Mean) combine(each [][]float64, dst []float64) {
	vals := make([]float64, len(each))
	for i := range dst {
		for j := range each {
			vals[j] = each[j][i]
		}
		dst[i] = c.of(vals)
	}
}

// of is the combination of one cell's forecasts: their mean, or with
// Median their median. It reorders vals.
func (c *Mean) of(vals []float64) float64 {
	if !c.Median {
		var sum float64
		w := 1 / float64(len(vals))
		for _, v := range vals {
			sum += w * v
		}
		return sum
	}
	slices.Sort(vals)
	k := len(vals) / 2
	if len(vals)%2 == 1 {
		return vals[k]
	}
	return (vals[k-1] + vals[k]) / 2
}

// OneStep writes the average of the members' one-step forecasts of rows
// from..m.T-1 into dst, row-major; a member that is a OneStepper filters
// the history once.
func (c *Mean) OneStep(m series.Matrix, from int, dst []float64) {
	each := make([][]float64, len(c.Members))
	for j, f := range c.Members {
		each[j] = make([]float64, len(dst))
		if o, ok := f.(OneStepper); ok {
			o.OneStep(m, from, each[j])
			continue
		}
		for t := from; t < m.T; t++ {
			f.Forecast(m, t, [][]float64{each[j][(t-from)*m.N : (t-from+1)*m.N]})
		}
	}
	c.combine(each, dst)
}
