package gat

import (
	"slices"

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
func Evaluate(model *Model, m series.Matrix, invert Invert) (out []Metrics, skipped []error, err error) {
	cfg := model.Config
	fit, val, test, err := cfg.Samples(m)
	if err != nil {
		return nil, nil, err
	}
	train := append(slices.Clone(fit), val...)
	fs, skipped, err := Methods(model, m, train, max(1, cfg.Season))
	if err != nil {
		return nil, nil, err
	}
	valMSE := map[string]float64{}
	if len(val) > 0 {
		vfs, _, err := Methods(model, m, fit, max(1, cfg.Season))
		if err != nil {
			return nil, nil, err
		}
		for _, f := range vfs {
			valMSE[f.Name()] = baseline.MSE(f, m, val, nil)
		}
	}
	// Every method is scored on the training samples each can forecast.
	first := max(cfg.Span(), cfg.Season, cfg.Window+1)
	scored := slices.DeleteFunc(slices.Clone(train), func(t int) bool { return t < first })
	for _, f := range fs {
		r := Metrics{Method: f.Name(), TrainMSE: baseline.MSE(f, m, scored, nil), TestMSE: baseline.MSE(f, m, test, nil)}
		if v, ok := valMSE[f.Name()]; ok {
			r.ValMSE = &v
		}
		if invert != nil {
			tr, te := baseline.MSE(f, m, scored, invert), baseline.MSE(f, m, test, invert)
			r.TrainMSEOriginal, r.TestMSEOriginal = &tr, &te
		}
		out = append(out, r)
	}
	return out, skipped, nil
}
