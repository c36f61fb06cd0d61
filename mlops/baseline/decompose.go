package baseline

// additiveSeasonal returns the seasonal indices of the values y by
// classical additive decomposition: the trend is the centred moving
// average of season values (a 2 x season average when season is even), the
// index of position j is the mean of the values less their trend at the
// rows t = j (mod season) where the trend is defined, and the indices are
// shifted to sum to zero. y must hold at least 2*season values, so that
// every position has a detrended value.
func additiveSeasonal(y []float64, season int) []float64 {
	return classicalSeasonal(y, season, false)
}

// classicalSeasonal returns the seasonal indices of y by classical
// decomposition, as R's stats::decompose computes its figure: additive
// as additiveSeasonal documents, or multiplicative, where the detrended
// values are y divided by the trend and the indices are scaled to average
// 1. Position j of the result is that of the rows t = j (mod season).
func classicalSeasonal(y []float64, season int, multiplicative bool) []float64 {
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
		if multiplicative {
			sum[t%season] += y[t] / trend
		} else {
			sum[t%season] += y[t] - trend
		}
		count[t%season]++
	}
	for j := range sum {
		sum[j] /= count[j]
	}
	c := mean(sum)
	for j := range sum {
		if multiplicative {
			sum[j] /= c
		} else {
			sum[j] -= c
		}
	}
	return sum
}
