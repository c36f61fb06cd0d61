//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
)

// storedCls is a decoded version (see classifier.DecodeStored).
type storedCls struct {
	model *classifier.Model
	cols  classifier.Columns
	epoch int
}

// artifact is the model after epoch, with its training state, as stored
// (see classifier.EncodeStored).
func (j *clsJob) artifact(m *classifier.Model, state *classifier.State, epoch int) ([]byte, error) {
	return classifier.EncodeStored(m, state, epoch, j.cols)
}

func decodeClsArtifact(data []byte) (*storedCls, error) {
	s, err := classifier.DecodeStored(data)
	if err != nil {
		return nil, err
	}
	return &storedCls{model: s.Model, cols: s.Columns, epoch: s.Epoch}, nil
}

// result measures the model, a linear model fitted on the same rows
// (unless the model is one, or reads images) and the trivial baseline
// (the training rows' class shares, or mean) on the test rows, and
// stores the model. With architecture 'auto' the linear model is stored
// instead when its validation loss is lower, with a NOTICE saying so.
func (r *clsRun) result(ctx context.Context, run *training.Run, model *classifier.Model, last *classifier.State,
	bestVal *float64) (*training.Result, error) {
	served, servedVal, state := model, bestVal, last
	m, err := r.measure(ctx, model.Kind, model, r.test)
	if err != nil {
		return nil, err
	}
	m.ValLoss, m.Served = bestVal, true
	metrics := []classifier.Recorded{m}
	if model.Kind != classifier.ModelLinear && model.Prep.Image == nil {
		lin, linVal, err := r.fitLinear(ctx)
		if err != nil {
			return nil, err
		}
		if m, err = r.measure(ctx, classifier.ModelLinear, lin, r.test); err != nil {
			return nil, err
		}
		m.ValLoss = linVal
		if r.spec.arch == archAuto && linVal != nil && bestVal != nil && *linVal < *bestVal {
			served, servedVal, state, metrics[0].Served, m.Served = lin, linVal, nil, false, true
			run.Notice(fmt.Sprintf("%s %s: architecture 'auto' stores the linear model: validation loss %.4f, %s's %.4f",
				r.spec.fn, run.Ref(), *linVal, model.Kind, *bestVal))
		}
		metrics = append(metrics, m)
	}
	metrics = append(metrics, r.trivial(model, r.fit, r.trainRows, r.test))
	epoch := r.spec.opts.Epochs
	if last != nil {
		epoch = last.Epoch
	}
	data, err := r.artifact(served, state, epoch)
	if err != nil {
		return nil, err
	}
	testLoss := classifier.ServedLoss(metrics, servedVal)
	return &training.Result{Artifact: data, Epoch: epoch, Metrics: metrics, TestLoss: testLoss, ValLoss: servedVal}, nil
}

// fitLinear fits the linear model on the model's rows with its settings,
// and returns its lowest validation loss (nil without validation rows).
func (r *clsRun) fitLinear(ctx context.Context) (*classifier.Model, *float64, error) {
	opts := r.spec.opts
	opts.Model, opts.From = classifier.ModelLinear, nil // a resumed run's linear model trains afresh, as in the run it continues
	var best *float64
	lin, err := classifier.FitSource(ctx, opts, r.fit.rows, classifier.Target{Labels: r.fit.labels, Values: r.fit.values}, r.isVal,
		func(e classifier.Epoch) error {
			if v := e.ValLoss; v == v && (best == nil || v < *best) {
				best = &v
			}
			return nil
		})
	if err != nil {
		return nil, nil, r.fitError(err)
	}
	return lin, best, nil
}

// measure is method's figures on the test rows.
func (j *clsJob) measure(ctx context.Context, method string, m *classifier.Model, test clsPart) (classifier.Recorded, error) {
	out := classifier.Recorded{Method: method, Rows: len(test.labels) + len(test.values)}
	if out.Rows == 0 {
		return out, nil
	}
	probs, err := m.PredictSource(ctx, test.rows)
	if err != nil {
		return out, j.fitError(err)
	}
	if j.spec.regression {
		pred := make([]float64, len(probs))
		for i, p := range probs {
			pred[i] = p[0]
		}
		return classifier.RecordRegression(method, classifier.Regress(pred, test.values)), nil
	}
	return classifier.RecordClassification(method, classifier.Classify(probs, test.labels, m.Classes)), nil
}

// trivial is the baseline's figures on the test rows: every row predicted
// as the training rows' class shares (the majority class), or their mean.
func (j *clsJob) trivial(m *classifier.Model, fit clsPart, trainRows int, test clsPart) classifier.Recorded {
	if j.spec.regression {
		return classifier.TrivialRegression(fit.values[:trainRows], test.values)
	}
	return classifier.TrivialClassification(fit.labels[:trainRows], test.labels, m.Classes)
}
