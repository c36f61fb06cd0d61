//go:build duckdb_arrow

package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
)

// clsArtifact is what the registry stores for a classifier or regressor
// version, final or checkpoint: the model (classifier.Model.Encode, with
// its preprocessing), the source columns it reads and its training
// state.
type clsArtifact struct {
	Epoch   int             `json:"epoch"`
	Columns clsColumns      `json:"columns"`
	Model   json.RawMessage `json:"model"`
	// State is the training state after Epoch, which resume := goes on
	// from; nil when the model stored is not the one trained (see
	// clsRun.result).
	State *classifier.State `json:"state,omitempty"`
}

// storedCls is a decoded artifact.
type storedCls struct {
	model *classifier.Model
	cols  clsColumns
	epoch int
}

func (j *clsJob) artifact(m *classifier.Model, state *classifier.State, epoch int) ([]byte, error) {
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return nil, err
	}
	return json.Marshal(clsArtifact{Epoch: epoch, Columns: j.cols, Model: buf.Bytes(), State: state})
}

func decodeClsArtifact(data []byte) (*storedCls, error) {
	var a clsArtifact
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("decode classifier artifact: %w", err)
	}
	m, err := classifier.Decode(bytes.NewReader(a.Model))
	if err != nil {
		return nil, err
	}
	return &storedCls{model: m, cols: a.Columns, epoch: a.Epoch}, nil
}

// clsMetrics are a method's test figures as mlops.models records them:
// null where there was nothing to measure (no test rows, a class never
// predicted).
type clsMetrics struct {
	Method    string              `json:"method"`
	Rows      int                 `json:"rows"`
	Accuracy  *float64            `json:"accuracy,omitempty"`
	MacroF1   *float64            `json:"macro_f1,omitempty"`
	LogLoss   *float64            `json:"log_loss,omitempty"`
	Precision map[string]*float64 `json:"precision,omitempty"`
	Recall    map[string]*float64 `json:"recall,omitempty"`
	RMSE      *float64            `json:"rmse,omitempty"`
	MAE       *float64            `json:"mae,omitempty"`
	R2        *float64            `json:"r2,omitempty"`
	// ValLoss is the lowest validation loss of a trained method; Served
	// marks the method the version stores and predict serves.
	ValLoss *float64 `json:"val_loss,omitempty"`
	Served  bool     `json:"served,omitempty"`
	// Confusion is a classifier's confusion matrix on the test rows.
	Confusion *confusion `json:"confusion,omitempty"`
}

// confusion is a confusion matrix: Counts[i][j] test rows of class
// Classes[i] were predicted as Classes[j].
type confusion struct {
	Classes []string `json:"classes"`
	Counts  [][]int  `json:"counts"`
}

// Baseline methods, besides the linear model.
const (
	methodMajority = "majority"
	methodMean     = "mean"
)

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
	metrics := []clsMetrics{m}
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
	testLoss := 0.0
	i := slices.IndexFunc(metrics, func(m clsMetrics) bool { return m.Served })
	switch {
	case metrics[i].LogLoss != nil:
		testLoss = *metrics[i].LogLoss
	case metrics[i].RMSE != nil:
		testLoss = *metrics[i].RMSE
	case servedVal != nil:
		testLoss = *servedVal
	}
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
func (j *clsJob) measure(ctx context.Context, method string, m *classifier.Model, test clsPart) (clsMetrics, error) {
	out := clsMetrics{Method: method, Rows: len(test.labels) + len(test.values)}
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
		return regressionMetrics(method, classifier.Regress(pred, test.values)), nil
	}
	return classMetrics(method, classifier.Classify(probs, test.labels, m.Classes)), nil
}

// trivial is the baseline's figures on the test rows: every row predicted
// as the training rows' class shares (the majority class), or their mean.
func (j *clsJob) trivial(m *classifier.Model, fit clsPart, trainRows int, test clsPart) clsMetrics {
	if j.spec.regression {
		var mean float64
		for _, v := range fit.values[:trainRows] {
			mean += v / float64(trainRows)
		}
		if len(test.values) == 0 {
			return clsMetrics{Method: methodMean}
		}
		pred := make([]float64, len(test.values))
		for i := range pred {
			pred[i] = mean
		}
		return regressionMetrics(methodMean, classifier.Regress(pred, test.values))
	}
	if len(test.labels) == 0 {
		return clsMetrics{Method: methodMajority}
	}
	prior := classifier.Prior(fit.labels[:trainRows], m.Classes)
	probs := make([][]float64, len(test.labels))
	for i := range probs {
		probs[i] = prior
	}
	return classMetrics(methodMajority, classifier.Classify(probs, test.labels, m.Classes))
}

func classMetrics(method string, c classifier.Classification) clsMetrics {
	out := clsMetrics{Method: method, Rows: c.Rows, Accuracy: finite(c.Accuracy), MacroF1: finite(c.MacroF1), LogLoss: finite(c.LogLoss),
		Precision: map[string]*float64{}, Recall: map[string]*float64{}, Confusion: &confusion{Classes: c.Labels, Counts: c.Confusion}}
	for k, v := range c.Precision {
		out.Precision[k] = finite(v)
	}
	for k, v := range c.Recall {
		out.Recall[k] = finite(v)
	}
	return out
}

func regressionMetrics(method string, r classifier.Regression) clsMetrics {
	return clsMetrics{Method: method, Rows: r.Rows, RMSE: finite(r.RMSE), MAE: finite(r.MAE), R2: finite(r.R2)}
}

// finite is v, or nil if v is not a finite number.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
