package baseline

import (
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/series"
)

// resume smooths each entity's rows before origin as Forecast does.
func (th *Theta) resume(m series.Matrix, origin int) *ThetaFinal {
	out := &ThetaFinal{Fit: th, Level: make([]float64, len(th.Alpha))}
	for n, alpha := range th.Alpha {
		l, from := th.start(m, n)
		for t := from; t < origin; t++ {
			l += alpha * (th.adjust(m.Values[t*m.N+n], t, n) - l)
		}
		out.Level[n] = l
	}
	return out
}

// forecast extends entity n's level as Theta.Forecast does.
func (f *ThetaFinal) forecast(n, origin int, dst []float64) {
	th, alpha := f.Fit, f.Fit.Alpha[n]
	start := (1 - math.Pow(1-alpha, float64(origin))) / alpha
	for k := range dst {
		dst[k] = th.reseason(f.Level[n]+th.Drift[n]*(float64(k)+start), origin+k, n)
	}
}

// resume filters each entity's differenced rows before origin as
// ARIMAModel.forecast does and keeps the rows its differences reach.
func (a *ARIMA) resume(m series.Matrix, origin int) *ARIMAFinal {
	out := &ARIMAFinal{Models: slices.Clone(a.Models), Filter: make([][]float64, len(a.Models)), Tail: make([][]float64, len(a.Models))}
	y := make([]float64, origin)
	for n := range a.Models {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		var white bool
		out.Filter[n], out.Tail[n], white = a.Models[n].resume(y)
		if white {
			if out.White == nil {
				out.White = make([]bool, len(a.Models))
			}
			out.White[n] = true
		}
	}
	return out
}

// resume is the mean of the model's filter state after y and the last
// rows of y its differences reach back to; no state and the last row when
// y is too short to difference. white reports a filter of white noise,
// which filter falls back to for parameters without a stationary start.
func (md *ARIMAModel) resume(y []float64) (state, tail []float64, white bool) {
	c := diffPoly(md.Order.D, md.Order.SD, max(md.Period, 1))
	nd, origin := len(c)-1, len(y)
	if origin <= nd {
		return nil, slices.Clone(y[origin-1:]), false
	}
	k := md.filter()
	for t := nd; t < origin; t++ {
		var w float64
		for i, ci := range c {
			w += ci * y[t-i]
		}
		k.update(w - md.Mean)
	}
	return slices.Clone(k.a), slices.Clone(y[origin-nd:]), len(k.nz) == 0 && md.hasAR()
}

// forecast projects entity n's filter state and undoes its differences
// as ARIMAModel.forecast does.
func (f *ARIMAFinal) forecast(n int, dst []float64) {
	md, tail := &f.Models[n], f.Tail[n]
	if len(f.Filter[n]) == 0 {
		for k := range dst {
			dst[k] = tail[len(tail)-1]
		}
		return
	}
	k := md.transitionOf(len(f.Filter[n]), f.White != nil && f.White[n])
	x := slices.Clone(f.Filter[n])
	for h := range dst {
		dst[h] = x[0]
		k.transition(x)
	}
	c := diffPoly(md.Order.D, md.Order.SD, max(md.Period, 1))
	nd := len(c) - 1
	full := append(slices.Clone(tail), make([]float64, len(dst))...)
	for h := range dst {
		t := nd + h
		p := md.Mean + dst[h]
		for i := 1; i <= nd; i++ {
			p -= c[i] * full[t-i]
		}
		full[t], dst[h] = p, p
	}
}

// hasAR reports whether the model has a nonzero autoregressive
// coefficient.
func (md *ARIMAModel) hasAR() bool {
	return slices.ContainsFunc(expand(md.AR, md.SAR, max(md.Period, 1), -1), func(v float64) bool { return v != 0 })
}

// transitionOf is the transition of the model's filter, whose state has r
// values, without the start filter computes; that of white noise when
// white (see resume).
func (md *ARIMAModel) transitionOf(r int, white bool) *armaFilter {
	var phi []float64
	if !white {
		phi = expand(md.AR, md.SAR, max(md.Period, 1), -1)
	}
	k := &armaFilter{r: r, phi: make([]float64, r)}
	copy(k.phi, phi)
	for j, v := range phi {
		if v != 0 {
			k.nz = append(k.nz, j+1)
		}
	}
	return k
}
