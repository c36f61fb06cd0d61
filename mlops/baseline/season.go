package baseline

import (
	"math"

	"github.com/mallard/mallard/mlops/series"
)

// SeasonCandidates returns the seasons DetectSeason tries by default: a
// year of quarters, a week of days, a year of months, a day of hours and
// a year of weeks. The
// slice is new on every call.
func SeasonCandidates() []int { return []int{4, 7, 12, 24, 52} }

// DetectSeason returns the season of rows 0..rows-1 of m among the
// candidates, and the autocorrelation that chose it. For each candidate s
// with 2 <= s <= rows/3 it computes, for every entity, the sample
// autocorrelation at lag s of the entity's first differences, so that a
// trend does not pass for a season, and averages it over the entities
// whose differences vary and are finite. The season is the candidate with
// the largest mean autocorrelation if that exceeds 1.96/sqrt(rows-1), the
// 95% bound for white noise over the rows-1 differences; otherwise it is
// 1. acf is the largest mean autocorrelation found, whether significant or
// not, and NaN when no candidate could be measured. DetectSeason panics if
// rows > m.T.
func DetectSeason(m series.Matrix, rows int, candidates []int) (season int, acf float64) {
	season, acf = 1, math.NaN()
	best := 0
	d := make([]float64, max(rows-1, 0))
	for _, s := range candidates {
		if s < 2 || s > rows/3 {
			continue
		}
		r := meanACF(m, d, s)
		if !math.IsNaN(r) && (math.IsNaN(acf) || r > acf) {
			acf, best = r, s
		}
	}
	if best > 0 && acf > 1.96/math.Sqrt(float64(len(d))) {
		season = best
	}
	return season, acf
}

// meanACF returns the autocorrelation at lag of the first differences of
// each entity's first len(d)+1 rows of m, averaged over the entities for
// which it is defined, or NaN for none. d is scratch space.
func meanACF(m series.Matrix, d []float64, lag int) float64 {
	var sum float64
	var count int
	for n := range m.N {
		for t := range d {
			d[t] = m.At(t+1, n) - m.At(t, n)
		}
		if r := acfAt(d, lag); !math.IsNaN(r) {
			sum += r
			count++
		}
	}
	if count == 0 {
		return math.NaN()
	}
	return sum / float64(count)
}

// acfAt returns the sample autocorrelation of x at lag, the standard
// estimator sum (x[t]-mean)(x[t+lag]-mean) / sum (x[t]-mean)^2, or NaN when
// x does not vary or holds non-finite values.
func acfAt(x []float64, lag int) float64 {
	xm := mean(x)
	var num, den float64
	for t, v := range x {
		den += (v - xm) * (v - xm)
		if t+lag < len(x) {
			num += (v - xm) * (x[t+lag] - xm)
		}
	}
	if den == 0 || math.IsInf(den, 0) {
		return math.NaN()
	}
	return num / den
}
