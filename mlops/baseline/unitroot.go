package baseline

import "math"

// kpssCritical5 is the 5% critical value of the KPSS statistic for level
// stationarity (Kwiatkowski et al. 1992, table 1), the one R's
// forecast::ndiffs compares with at its default alpha of 0.05.
const kpssCritical5 = 0.463

// KPSS returns the KPSS statistic of x for level stationarity with lags
// lags of the Bartlett-weighted long-run variance, as R's
// urca::ur.kpss(x, type = "mu", use.lag = lags) computes it: with e the
// deviations of x from its mean and S their cumulative sums,
//
//	KPSS = sum S^2 / n^2 / (sum e^2/n + 2/n sum_{i=1..lags} (1 - i/(lags+1)) sum_t e(t) e(t-i)).
//
// It is NaN for fewer than two values or values that do not vary.
func KPSS(x []float64, lags int) float64 {
	n := len(x)
	if n < 2 {
		return math.NaN()
	}
	xm := mean(x)
	e := make([]float64, n)
	var s, eta, v float64
	for t, xv := range x {
		e[t] = xv - xm
		s += e[t]
		eta += s * s
		v += e[t] * e[t]
	}
	eta /= float64(n) * float64(n)
	for i := 1; i <= lags && i < n; i++ {
		var c float64
		for t := i; t < n; t++ {
			c += e[t] * e[t-i]
		}
		v += 2 * (1 - float64(i)/float64(lags+1)) * c
	}
	v /= float64(n)
	if !(v > 0) {
		return math.NaN()
	}
	return eta / v
}

// NDiffs returns the number of first differences, at most 2, that x needs
// to pass the KPSS test at the 5% level, as R's forecast::ndiffs does by
// default: while KPSS with trunc(3 sqrt(n)/13) lags exceeds the critical
// value 0.463, x is differenced once more; a series that becomes constant
// stops the differencing.
func NDiffs(x []float64) int {
	d := 0
	for d < arimaMaxD && len(x) > 1 && !constantSeries(x) {
		if !(KPSS(x, int(3*math.Sqrt(float64(len(x)))/13)) > kpssCritical5) {
			break
		}
		d++
		x = difference(x, 1, 0, 1)
	}
	return d
}

// SeasonalStrength returns the strength of the season of period rows in
// y, max(0, 1 - var(R)/var(S+R)), in [0, 1], with S the seasonal
// component and R the remainder of the STL decomposition that R's
// forecast::nsdiffs measures it on (see stlSeasonal). y holds more than
// 2*period values; period is at least 2.
func SeasonalStrength(y []float64, period int) float64 {
	s, tr := stlSeasonal(y, period)
	rem := make([]float64, len(y))
	both := make([]float64, len(y))
	for t, v := range y {
		rem[t] = v - s[t] - tr[t]
		both[t] = rem[t] + s[t]
	}
	vb := variance(both)
	if !(vb > 0) {
		return 0
	}
	return math.Max(0, math.Min(1, 1-variance(rem)/vb))
}

// variance returns the sample variance of x.
func variance(x []float64) float64 {
	sd := stddev(x)
	return sd * sd
}
