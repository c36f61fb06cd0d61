package baseline

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// SeasonalNaive predicts each entity's value one season earlier. Its
// forecast of row origin+k is row origin-Season+(k mod Season): the last
// observed season repeated, the SNAIVE method of Hyndman & Athanasopoulos,
// Forecasting: Principles and Practice (3rd ed.), section 5.2. With
// Season 1 it is LastValue.
type SeasonalNaive struct {
	// Season is the number of rows in a season, at least 1.
	Season int
}

// Name returns "seasonal_naive".
func (SeasonalNaive) Name() string { return string(KindSeasonalNaive) }

// Predict copies row t-Season of m into dst. It panics unless
// Season <= t <= m.T.
func (s SeasonalNaive) Predict(m series.Matrix, t int, dst []float64) {
	checkDst(dst, m.N)
	if t < s.Season || t > m.T {
		panic(fmt.Sprintf("baseline: season of %d rows before row %d out of range for %d rows", s.Season, t, m.T))
	}
	copy(dst, m.Row(t-s.Season))
}

// Forecast copies into dst[k] row origin-Season+(k mod Season) of m; it
// reads the Season rows before origin.
func (s SeasonalNaive) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, s.Season, dst)
	for k, row := range dst {
		copy(row, m.Row(origin-s.Season+k%s.Season))
	}
}
