package gat

import (
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// EntityResiduals returns, for steps 1..h and each entity, the absolute
// errors of f's forecasts from every origin whose step lies before row
// end, in origin order: out[k][i] holds entity i's errors k+1 steps ahead.
// A step no origin reaches is empty for every entity.
func EntityResiduals(f baseline.Forecaster, m series.Matrix, from, end, h int) [][][]float64 {
	return residualsAt(f, m, Origins(from, end, 1), end, h)
}

// residualsAt is EntityResiduals from the given origins only, in their
// order, their steps still before row end.
func residualsAt(f baseline.Forecaster, m series.Matrix, origins []int, end, h int) [][][]float64 {
	out := make([][][]float64, h)
	for k := range out {
		out[k] = make([][]float64, m.N)
	}
	dst := baseline.Rows(h, m.N)
	for _, o := range origins {
		steps := min(h, end-o)
		f.Forecast(m, o, dst[:steps])
		for k := range steps {
			for i, q := range dst[k] {
				out[k][i] = append(out[k][i], math.Abs(q-m.At(o+k, i)))
			}
		}
	}
	return out
}

// EntityHalfWidths are each entity's half-widths at level for each step of
// residuals (as EntityResiduals returns them): normalised split-conformal
// intervals (Lei et al. 2018, section 5.2). An entity's scale s is the
// median of its one-step errors (robust to the odd outlier among them),
// floored at a thousandth of the mean over the entities so that a series
// validated without error still gets a width;
// the residuals of every entity, divided by their entity's scale, are
// pooled into one quantile per step, and entity i's half-width is that
// quantile times its scale. A series that moves little thus gets a narrow
// interval and a volatile one a wide one, while every entity's interval
// keeps the pooled coverage guarantee under exchangeability of the scaled
// errors. Steps past the validation span grow as HalfWidths says; a step
// before any reached is +Inf.
func EntityHalfWidths(residuals [][][]float64, level float64) [][]float64 {
	out := make([][]float64, len(residuals))
	if len(residuals) == 0 {
		return out
	}
	scale := entityScales(residuals[0])
	last := -1
	for k, byEntity := range residuals {
		out[k] = make([]float64, len(byEntity))
		var pooled []float64
		for i, r := range byEntity {
			for _, v := range r {
				pooled = append(pooled, v/scale[i])
			}
		}
		slices.Sort(pooled)
		for i := range out[k] {
			switch {
			case len(pooled) > 0:
				out[k][i] = Quantile(pooled, level) * scale[i]
			case last < 0:
				out[k][i] = math.Inf(1)
			default:
				out[k][i] = out[last][i] * math.Sqrt(float64(k+1)/float64(last+1))
			}
		}
		if len(pooled) > 0 {
			last = k
		}
	}
	return out
}

// entityScales are the entities' median one-step absolute errors, floored
// at a thousandth of their mean (1 where no entity has an error to
// measure).
func entityScales(oneStep [][]float64) []float64 {
	scale := make([]float64, len(oneStep))
	var sum float64
	var count int
	for i, r := range oneStep {
		if len(r) > 0 {
			scale[i] = median(r)
			sum += scale[i]
			count++
		}
	}
	floor := 1.0
	if count > 0 && sum > 0 {
		floor = sum / float64(count) / 1000
	}
	for i := range scale {
		scale[i] = max(scale[i], floor)
	}
	return scale
}

// median is the median of x, which it does not change.
func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
