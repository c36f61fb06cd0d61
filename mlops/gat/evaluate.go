package gat

import (
	"errors"
	"math"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// Metrics are one method's one-step mean squared errors on the training,
// validation and test samples, in the scale the model was trained on and,
// when an inverse transform is given, in original units. ValMSE is that
// of the method fitted on the rows before the validation samples (for the
// model, as it was trained): what choosing a method may read.
type Metrics struct {
	Method           string   `json:"method"`
	TrainMSE         float64  `json:"train_mse"`
	TestMSE          float64  `json:"test_mse"`
	ValMSE           *float64 `json:"val_mse,omitempty"`
	TrainMSEOriginal *float64 `json:"train_mse_original,omitempty"`
	TestMSEOriginal  *float64 `json:"test_mse_original,omitempty"`
}

// Invert maps entity i's value back to original units.
type Invert func(i int, v float64) float64

// Evaluate scores the model and the baselines (see Methods), fitted on the
// same training samples, on the model's chronological split of m; the
// training MSE is over the training samples that every method can
// forecast (those with a season, and the baselines' windows, before them). invert,
// if not nil, also gives the errors in original units. Baselines that
// cannot be fitted are left out and returned in skipped.
//
// The work runs on up to the model's Config.Workers goroutines: the
// model's predictions of every scored sample, split over them; the
// baselines' fits and scores, one method to a goroutine. The figures do
// not depend on the number of workers.
func Evaluate(model *Model, m series.Matrix, invert Invert) (out []Metrics, skipped []error, err error) {
	out, skipped, _, _, err = evaluate(model, m, invert)
	return out, skipped, err
}

// EvaluateState is Evaluate that also returns the version's
// ForecastState, kept from the same fits of the ladder: forecasts and
// their intervals from it equal those of the methods fitted again.
func EvaluateState(model *Model, m series.Matrix, invert Invert) (out []Metrics, skipped []error, st *ForecastState, err error) {
	out, skipped, fs, vfs, err := evaluate(model, m, invert)
	if err != nil {
		return nil, nil, nil, err
	}
	_, val, _, err := model.Config.Samples(m)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err = newForecastState(model, fs, vfs, m, val, min(len(val), max(widthSteps, model.Config.horizon())), model.Config.Workers)
	return out, skipped, st, err
}

// evaluate is Evaluate, and the methods it fitted on the training and on
// the fitting samples.
func evaluate(model *Model, m series.Matrix, invert Invert) (out []Metrics, skipped []error, fs, vfs []baseline.Forecaster, err error) {
	cfg := model.Config
	fit, val, test, err := cfg.Samples(m)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	train := append(slices.Clone(fit), val...)
	// Every method is scored on the training samples each can forecast.
	first := max(cfg.Span(), cfg.Season, cfg.Window+1)
	scored := slices.DeleteFunc(slices.Clone(train), func(t int) bool { return t < first })
	workers := max(1, cfg.Workers)
	var (
		fsErr, vErr error
		own         map[int][]float64
		ownErr      error
		wg          sync.WaitGroup
	)
	wg.Go(func() { own, ownErr = model.predictionsOf(m, workers, scored, val, test) })
	wg.Go(func() { fs, skipped, fsErr = Methods(model, m, train, max(1, cfg.Season)) })
	if len(val) > 0 {
		wg.Go(func() { vfs, _, vErr = Methods(model, m, fit, max(1, cfg.Season)) })
	}
	wg.Wait()
	if err := errors.Join(ownErr, fsErr, vErr); err != nil {
		return nil, nil, nil, nil, err
	}
	score := func(f baseline.Forecaster, rows []int, inv Invert) float64 {
		if f.Name() != ModelMethod {
			return baseline.MSE(f, m, rows, inv)
		}
		if len(rows) == 0 || m.N == 0 {
			return math.NaN()
		}
		pred := make([][]float64, len(rows))
		for k, t := range rows {
			pred[k] = own[t]
		}
		return sse(m, rows, pred, inv) / float64(len(rows)*m.N)
	}
	valMSE := make([]float64, len(vfs))
	out = make([]Metrics, len(fs))
	eachMethod(workers, len(fs)+len(vfs), func(k int) {
		if k >= len(fs) {
			valMSE[k-len(fs)] = score(vfs[k-len(fs)], val, nil)
			return
		}
		f := fs[k]
		r := Metrics{Method: f.Name(), TrainMSE: score(f, scored, nil), TestMSE: score(f, test, nil)}
		if invert != nil {
			tr, te := score(f, scored, invert), score(f, test, invert)
			r.TrainMSEOriginal, r.TestMSEOriginal = &tr, &te
		}
		out[k] = r
	})
	for k, f := range vfs {
		for i := range out {
			if out[i].Method == f.Name() {
				out[i].ValMSE = &valMSE[k]
			}
		}
	}
	return out, skipped, fs, vfs, nil
}

// predictionsOf is the model's one-step prediction of every row in the
// given lists, by row.
func (m *Model) predictionsOf(x series.Matrix, workers int, lists ...[]int) (map[int][]float64, error) {
	var rows []int
	for _, l := range lists {
		rows = append(rows, l...)
	}
	slices.Sort(rows)
	rows = slices.Compact(rows)
	pred, err := m.oneStep(x, rows, workers)
	if err != nil {
		return nil, err
	}
	byRow := make(map[int][]float64, len(rows))
	for k, t := range rows {
		byRow[t] = pred[k]
	}
	return byRow, nil
}

// eachMethod calls do(k) for k in 0..n-1 on up to workers goroutines.
func eachMethod(workers, n int, do func(k int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for k := range next {
				do(k)
			}
		})
	}
	for k := range n {
		next <- k
	}
	close(next)
	wg.Wait()
}
