//go:build duckdb_arrow

package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
)

// clsArtifact is what the registry stores for a classifier or regressor
// version, final or checkpoint: the model (classifier.Model.Encode, with
// its preprocessing) and the source columns it reads.
type clsArtifact struct {
	Epoch   int             `json:"epoch"`
	Columns clsColumns      `json:"columns"`
	Model   json.RawMessage `json:"model"`
}

// storedCls is a decoded artifact.
type storedCls struct {
	model *classifier.Model
	cols  clsColumns
	epoch int
}

func (j *clsJob) artifact(m *classifier.Model, epoch int) ([]byte, error) {
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return nil, err
	}
	return json.Marshal(clsArtifact{Epoch: epoch, Columns: j.cols, Model: buf.Bytes()})
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
}

// Baseline methods, besides the linear model.
const (
	methodMajority = "majority"
	methodMean     = "mean"
)

// result measures the model, a linear model fitted on the same rows
// (unless the model is one, or reads images) and the trivial baseline
// (the training rows' class shares, or mean) on the test rows, and
// stores the model.
func (j *clsJob) result(ctx context.Context, model *classifier.Model, fit clsData, isVal []bool, trainRows int,
	test clsData, bestVal *float64) (*training.Result, error) {
	data, err := j.artifact(model, j.spec.opts.Epochs)
	if err != nil {
		return nil, err
	}
	metrics := []clsMetrics{}
	m, err := j.measure(model.Kind, model, test)
	if err != nil {
		return nil, err
	}
	metrics = append(metrics, m)
	if model.Kind != classifier.ModelLinear && model.Prep.Image == nil {
		opts := j.spec.opts
		opts.Model = classifier.ModelLinear
		lin, err := classifier.Fit(ctx, opts, fit.table, classifier.Target{Labels: fit.labels, Values: fit.values}, isVal, nil)
		if err != nil {
			return nil, j.fitError(err)
		}
		if m, err = j.measure(classifier.ModelLinear, lin, test); err != nil {
			return nil, err
		}
		metrics = append(metrics, m)
	}
	metrics = append(metrics, j.trivial(model, fit, trainRows, test))
	testLoss := 0.0
	switch {
	case metrics[0].LogLoss != nil:
		testLoss = *metrics[0].LogLoss
	case metrics[0].RMSE != nil:
		testLoss = *metrics[0].RMSE
	case bestVal != nil:
		testLoss = *bestVal
	}
	return &training.Result{Artifact: data, Epoch: j.spec.opts.Epochs, Metrics: metrics, TestLoss: testLoss, ValLoss: bestVal}, nil
}

// measure is method's figures on the test rows.
func (j *clsJob) measure(method string, m *classifier.Model, test clsData) (clsMetrics, error) {
	out := clsMetrics{Method: method, Rows: len(test.labels) + len(test.values)}
	if out.Rows == 0 {
		return out, nil
	}
	probs, err := m.Predict(test.table)
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
func (j *clsJob) trivial(m *classifier.Model, fit clsData, trainRows int, test clsData) clsMetrics {
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
		Precision: map[string]*float64{}, Recall: map[string]*float64{}}
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
