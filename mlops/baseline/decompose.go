package baseline

// additiveSeasonal returns the seasonal indices of the values y by
// classical additive decomposition, as R's decompose(type = "additive"):
// the trend is the centred moving average of season values (a 2 x season
// average when season is even), the index of position j is the mean of
// the values less their trend at the rows t = j (mod season) where the
// trend is defined, and the indices are shifted to sum to zero. y must
// hold at least 2*season values, so that every position has a detrended
// value.
func additiveSeasonal(y []float64, season int) []float64 {
	fig := seasonalFigure(y, season, func(v, trend float64) float64 { return v - trend })
	c := mean(fig)
	for j := range fig {
		fig[j] -= c
	}
	return fig
}

// multiplicativeSeasonal returns the seasonal factors of the values y by
// classical multiplicative decomposition, as R's decompose(type =
// "multiplicative"): the factor of position j is the mean of the values
// divided by their trend (the centred moving average of additiveSeasonal)
// at the rows t = j (mod season), and the factors are scaled to average
// 1. y must hold at least 2*season values; the factors are meaningful
// only for positive values.
func multiplicativeSeasonal(y []float64, season int) []float64 {
	fig := seasonalFigure(y, season, func(v, trend float64) float64 { return v / trend })
	c := mean(fig)
	for j := range fig {
		fig[j] /= c
	}
	return fig
}

// seasonalFigure returns, for each position j of the season, the mean of
// detrend(y[t], trend(t)) over the rows t = j (mod season) where the
// centred moving average trend(t) is defined.
func seasonalFigure(y []float64, season int, detrend func(v, trend float64) float64) []float64 {
	half := season / 2
	sum := make([]float64, season)
	count := make([]float64, season)
	for t := half; t < len(y)-half; t++ {
		var trend float64
		for i := -half; i <= half; i++ {
			w := 1.0
			if season%2 == 0 && (i == -half || i == half) {
				w = 0.5
			}
			trend += w * y[t+i]
		}
		trend /= float64(season)
		sum[t%season] += detrend(y[t], trend)
		count[t%season]++
	}
	for j := range sum {
		sum[j] /= count[j]
	}
	return sum
}
