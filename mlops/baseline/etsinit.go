package baseline

// etsInitStates returns R's heuristic initial states for the form with
// season m over the values y (at least 3*m of them when seasonal): the
// level, the trend if the form has one, and the seasonal indices
// s0..s(m-2) of the rows before the first, s0 the latest.
//
// The indices are those of classical decomposition of y (additive or
// multiplicative as the season is), the multiplicative ones at least 0.01
// and scaled down if they sum to more than m. The level and trend are
// the intercept and slope of the least-squares line through the first
// max(10, 2m) seasonally adjusted values against 1, 2, ..., or the level
// is their mean when the form has no trend. This is R's initstate for the
// series fitETS fits.
func etsInitStates(y []float64, f etsForm, m int) []float64 {
	adjusted := y
	var seas []float64
	if f.season != 'N' {
		mult := f.season == 'M'
		fig := additiveSeasonal(y, m)
		if mult {
			fig = multiplicativeSeasonal(y, m)
		}
		seas = make([]float64, m-1)
		for i := range seas {
			seas[i] = fig[m-1-i]
		}
		adjusted = make([]float64, len(y))
		if !mult {
			for t, v := range y {
				adjusted[t] = v - fig[t%m]
			}
		} else {
			var sum float64
			for i, v := range seas {
				seas[i] = max(v, 0.01)
				sum += seas[i]
			}
			if sum > float64(m) {
				for i := range seas {
					seas[i] /= sum + 0.01*float64(len(seas))
				}
			}
			for t, v := range y {
				adjusted[t] = v / max(fig[t%m], 0.01)
			}
		}
	}
	head := adjusted[:min(max(10, 2*m), len(adjusted))]
	if !f.trend {
		return append([]float64{mean(head)}, seas...)
	}
	level, slope := lineThrough(head)
	if l := level + slope; l < 1e-8 && l > -1e-8 {
		level, slope = level*(1+1e-3), slope*(1-1e-3)
	}
	return append([]float64{level, slope}, seas...)
}

// lineThrough returns the intercept and slope of the least-squares line
// through the values y against 1, 2, ..., len(y).
func lineThrough(y []float64) (intercept, slope float64) {
	xm := float64(len(y)+1) / 2
	ym := mean(y)
	var sxy, sxx float64
	for i, v := range y {
		dx := float64(i+1) - xm
		sxy += dx * (v - ym)
		sxx += dx * dx
	}
	slope = sxy / sxx
	return ym - slope*xm, slope
}
