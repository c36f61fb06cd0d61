package baseline

import (
	"fmt"
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/series"
)

// Forecaster forecasts several rows of a matrix for every entity.
type Forecaster interface {
	// Name is the Kind that fits the forecaster.
	Name() string
	// Forecast writes into dst[k], which must hold m.N values, the forecast
	// of row origin+k of m for k = 0..len(dst)-1. It reads only rows before
	// origin: rows at and after it, where they exist, do not change the
	// result. origin may be m.T, to forecast past the data. Forecast panics
	// if a row of dst has another length or origin leaves fewer rows before
	// it than the forecaster reads.
	Forecast(m series.Matrix, origin int, dst [][]float64)
}

// Rows returns h rows of n values each, zeroed: where a Forecaster
// writes an h-step forecast of n entities.
func Rows(h, n int) [][]float64 {
	out := make([][]float64, h)
	for k := range out {
		out[k] = make([]float64, n)
	}
	return out
}

// Options configures FitForecaster.
type Options struct {
	// Window is the window of the training samples and the number of lags
	// of ols and ar_diff.
	Window int
	// Season is the number of rows in a season, 1 for a series without
	// seasonality; see DetectSeason.
	Season int
}

// Validate returns an error wrapping ErrSeason unless Season is 1 or lies
// in 2..rows/3, so that rows training rows hold at least three seasons.
func (o Options) Validate(rows int) error {
	if o.Season == 1 || (o.Season > 1 && o.Season <= rows/3) {
		return nil
	}
	if rows/3 < 2 {
		return fmt.Errorf("%w: season %d, but %d training rows allow only season 1", ErrSeason, o.Season, rows)
	}
	return fmt.Errorf("%w: season %d not in 1..%d, a third of %d training rows", ErrSeason, o.Season, rows/3, rows)
}

// FitForecaster returns the baseline of the given kind fitted on the
// training samples train of m, each a target row as returned by
// series.Split for opt.Window. Every kind but ols and ar_diff, whose
// samples are their training pairs, fits on the training rows: rows 0 to
// the largest target in train, as FitConstant does.
//
// Besides the errors of Fit and ErrSeason from opt.Validate, it returns an
// error wrapping ErrTooShort when ets has too few training rows, and one
// wrapping ErrNonFinite when drift, ets, theta or arima meet NaN or infinite
// training values.
func FitForecaster(kind Kind, m series.Matrix, train []int, opt Options) (Forecaster, error) {
	if err := checkTraining(m, opt.Window, train); err != nil {
		return nil, err
	}
	rows := slices.Max(train) + 1
	if err := opt.Validate(rows); err != nil {
		return nil, err
	}
	switch kind {
	case KindLastValue:
		return LastValue{}, nil
	case KindSeasonalNaive:
		return SeasonalNaive{Season: opt.Season}, nil
	case KindDrift:
		return forecaster(fitDrift(m, rows))
	case KindConstant:
		return forecaster(FitConstant(m, opt.Window, train))
	case KindOLS:
		return forecaster(FitOLS(m, opt.Window, train))
	case KindARDiff:
		return forecaster(FitARDiff(m, opt.Window, train))
	case KindETS:
		return forecaster(fitETS(m, rows, opt.Season))
	case KindTheta:
		return forecaster(fitTheta(m, rows, opt.Season))
	case KindARIMA:
		return forecaster(fitARIMAs(m, rows, opt.Season))
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownKind, kind)
}

// forecaster returns f as a Forecaster, or a nil Forecaster (not a typed
// nil pointer) with err.
func forecaster[F Forecaster](f F, err error) (Forecaster, error) {
	if err != nil {
		return nil, err
	}
	return f, nil
}

// checkFinite returns an error wrapping ErrNonFinite if rows 0..rows-1 of m
// hold a NaN or infinite value.
func checkFinite(m series.Matrix, rows int) error {
	for i, v := range m.Values[:rows*m.N] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %v at row %d, entity %d", ErrNonFinite, v, i/m.N, i%m.N)
		}
	}
	return nil
}

// checkForecast panics unless origin leaves the need rows a forecaster
// reads before it, origin is at most m.T, and every row of dst holds m.N
// values.
func checkForecast(m series.Matrix, origin, need int, dst [][]float64) {
	if origin < need || origin > m.T {
		panic(fmt.Sprintf("baseline: forecast origin %d needs %d rows before it, out of range for %d rows", origin, need, m.T))
	}
	for _, row := range dst {
		checkDst(row, m.N)
	}
}
