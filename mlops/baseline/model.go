// Package baseline holds the statistical forecasters a graph network is
// measured against, a ladder from the naive to the classical: the last
// value, the seasonal naive, the drift, a constant per entity, a pooled
// autoregression on levels (ols) and on first differences (ar_diff),
// exponential smoothing chosen per entity as R's forecast::ets chooses it
// (ets), the Theta method and automatic ARIMA (arima).
// Each is fitted on the training rows given by the samples of
// series.Split and forecasts every entity of the rows from an origin on
// (Forecaster); those that predict one row at a time are also Models.
package baseline

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/series"
)

// Model predicts a row of a matrix for every entity.
type Model interface {
	// Name is the Kind that fits the model.
	Name() string
	// Predict writes into dst, which must hold m.N values, the model's
	// prediction of row t of m from the rows before it. t may be m.T, to
	// forecast past the data. Predict panics if dst has another length or
	// the rows it reads do not exist.
	Predict(m series.Matrix, t int, dst []float64)
}

// Kind names a baseline.
type Kind string

// The baselines.
const (
	// KindConstant predicts each entity's training mean; see Constant.
	KindConstant Kind = "constant"
	// KindLastValue predicts each entity's previous value; see LastValue.
	KindLastValue Kind = "last_value"
	// KindOLS predicts with a pooled least-squares autoregression; see OLS.
	KindOLS Kind = "ols"
	// KindSeasonalNaive repeats the last observed season; see SeasonalNaive.
	KindSeasonalNaive Kind = "seasonal_naive"
	// KindDrift extends the line from the first to the last training row
	// from the last observed value; see Drift.
	KindDrift Kind = "drift"
	// KindARDiff is a pooled autoregression on first differences; see
	// ARDiff.
	KindARDiff Kind = "ar_diff"
	// KindETS is exponential smoothing in the state space form chosen by
	// AICc per entity, as R's forecast::ets; see ETS.
	KindETS Kind = "ets"
	// KindTheta is the Theta method; see Theta.
	KindTheta Kind = "theta"
	// KindARIMA is automatic seasonal ARIMA, per entity; see ARIMA.
	KindARIMA Kind = "arima"
)

// Kinds returns every Kind, from the simplest baseline to the most
// elaborate: last_value, seasonal_naive, drift, constant, ols, ar_diff,
// ets, theta, arima. The order is fixed, so reports list baselines alike.
func Kinds() []Kind {
	return []Kind{
		KindLastValue, KindSeasonalNaive, KindDrift, KindConstant,
		KindOLS, KindARDiff, KindETS, KindTheta, KindARIMA,
	}
}

// Errors reported by Fit and the constructors; test with errors.Is. They
// also return the errors of series.CheckSamples for a malformed matrix,
// window or sample.
var (
	// ErrUnknownKind reports a Kind that names no baseline.
	ErrUnknownKind = errors.New("baseline: unknown kind")
	// ErrNoTraining reports an empty list of training samples.
	ErrNoTraining = errors.New("baseline: no training samples")
	// ErrNonFinite reports training data with NaN or infinite values where
	// the fit cannot tolerate them.
	ErrNonFinite = errors.New("baseline: non-finite training values")
	// ErrTooShort reports training rows too few for a baseline to start;
	// the message says how many it needs.
	ErrTooShort = errors.New("baseline: too few training rows")
	// ErrSeason reports a season outside 1..rows/3 for the training rows.
	ErrSeason = errors.New("baseline: season out of range")
)

// MSE returns the mean squared error of f's one-step forecasts over every
// entity of every sample in samples, the target rows of m to predict, in
// the units invert maps each entity's values to (as they are when invert
// is nil). A OneStepper forecasts them in one pass over the history. MSE
// returns NaN when there is nothing to average.
func MSE(f Forecaster, m series.Matrix, samples []int, invert func(n int, v float64) float64) float64 {
	if len(samples) == 0 || m.N == 0 {
		return math.NaN()
	}
	pred := [][]float64{make([]float64, m.N)}
	forecast := func(t int) { f.Forecast(m, t, pred) }
	if o, ok := f.(OneStepper); ok {
		from := slices.Min(samples) // one pass over the history, not one per sample
		all := make([]float64, (m.T-from)*m.N)
		o.OneStep(m, from, all)
		forecast = func(t int) { pred[0] = all[(t-from)*m.N : (t-from+1)*m.N] }
	}
	var sum float64
	for _, t := range samples {
		forecast(t)
		for n, y := range m.Row(t) {
			q := pred[0][n]
			if invert != nil {
				y, q = invert(n, y), invert(n, q)
			}
			sum += (q - y) * (q - y)
		}
	}
	return sum / float64(len(samples)*m.N)
}

// MSEPerEntity returns, for each entity of m, the mean squared error of
// f's one-step forecasts of the target rows samples, in m's units: what
// MSE averages, entity by entity. Every value is NaN when samples is
// empty.
func MSEPerEntity(f Forecaster, m series.Matrix, samples []int) []float64 {
	out := make([]float64, m.N)
	pred := [][]float64{make([]float64, m.N)}
	for _, t := range samples {
		f.Forecast(m, t, pred)
		for n, y := range m.Row(t) {
			out[n] += (pred[0][n] - y) * (pred[0][n] - y)
		}
	}
	for n := range out {
		out[n] /= float64(len(samples))
	}
	return out
}

// checkTraining returns the error for training samples that cannot be fitted.
func checkTraining(m series.Matrix, window int, train []int) error {
	if err := series.CheckSamples(m, window, train); err != nil {
		return err
	}
	if len(train) == 0 {
		return ErrNoTraining
	}
	return nil
}

// checkDst panics unless dst holds one value for each of n entities.
func checkDst(dst []float64, n int) {
	if len(dst) != n {
		panic(fmt.Sprintf("baseline: predicting %d entities into %d values", n, len(dst)))
	}
}
