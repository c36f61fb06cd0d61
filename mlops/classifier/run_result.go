package classifier

import (
	"context"
	"fmt"

	lifecycle "github.com/mallard/mallard/mlops/training"
)

// result measures the model, a linear model fitted on the same rows
// (unless the model is one, or reads images) and the trivial baseline
// (the training rows' class shares, or mean) on the test rows, and
// stores the model. With Auto the linear model is stored instead when
// its validation loss is lower, with a NOTICE saying so.
func (r *Run) result(ctx context.Context, run *lifecycle.Run, model *Model, last *State, bestVal *float64) (*lifecycle.Result, error) {
	served, servedVal, state := model, bestVal, last
	m, err := r.measure(ctx, model.Kind, model)
	if err != nil {
		return nil, err
	}
	m.ValLoss, m.Served = bestVal, true
	metrics := []Recorded{m}
	if model.Kind != ModelLinear && model.Prep.Image == nil {
		lin, linVal, err := r.fitLinear(ctx)
		if err != nil {
			return nil, err
		}
		if m, err = r.measure(ctx, ModelLinear, lin); err != nil {
			return nil, err
		}
		m.ValLoss = linVal
		if r.Auto && linVal != nil && bestVal != nil && *linVal < *bestVal {
			served, servedVal, state, metrics[0].Served, m.Served = lin, linVal, nil, false, true
			run.Notice(fmt.Sprintf("%s %s: architecture 'auto' stores the linear model: validation loss %.4f, %s's %.4f",
				r.Fn, run.Ref(), *linVal, model.Kind, *bestVal))
		}
		metrics = append(metrics, m)
	}
	metrics = append(metrics, r.trivial(model))
	epoch := r.Options.Epochs
	if last != nil {
		epoch = last.Epoch
	}
	data, err := r.Artifact(served, state, epoch)
	if err != nil {
		return nil, err
	}
	testLoss := ServedLoss(metrics, servedVal)
	return &lifecycle.Result{Artifact: data, Epoch: epoch, Metrics: metrics, TestLoss: testLoss, ValLoss: servedVal}, nil
}

// fitLinear fits the linear model on the model's rows with its settings,
// and returns its lowest validation loss (nil without validation rows).
func (r *Run) fitLinear(ctx context.Context) (*Model, *float64, error) {
	opts := r.Options
	opts.Model, opts.From = ModelLinear, nil // a resumed run's linear model trains afresh, as in the run it continues
	var best *float64
	lin, err := FitSource(ctx, opts, r.FitRows.Rows, r.FitRows.target(), r.IsVal, func(e Epoch) error {
		if v := e.ValLoss; v == v && (best == nil || v < *best) {
			best = &v
		}
		return nil
	})
	if err != nil {
		return nil, nil, FitError(r.Fn, err)
	}
	return lin, best, nil
}

// measure is method's figures on the test rows.
func (r *Run) measure(ctx context.Context, method string, m *Model) (Recorded, error) {
	test := r.TestRows
	out := Recorded{Method: method, Rows: len(test.Labels) + len(test.Values)}
	if out.Rows == 0 {
		return out, nil
	}
	probs, err := m.PredictSource(ctx, test.Rows)
	if err != nil {
		return out, FitError(r.Fn, err)
	}
	if r.Regression {
		pred := make([]float64, len(probs))
		for i, p := range probs {
			pred[i] = p[0]
		}
		return RecordRegression(method, Regress(pred, test.Values)), nil
	}
	return RecordClassification(method, Classify(probs, test.Labels, m.Classes)), nil
}

// trivial is the baseline's figures on the test rows: every row predicted
// as the training rows' class shares (the majority class), or their mean.
func (r *Run) trivial(m *Model) Recorded {
	if r.Regression {
		return TrivialRegression(r.FitRows.Values[:r.TrainRows], r.TestRows.Values)
	}
	return TrivialClassification(r.FitRows.Labels[:r.TrainRows], r.TestRows.Labels, m.Classes)
}
