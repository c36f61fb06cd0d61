//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// modelsSchema is the minimal model registry train_gat writes: one row per
// version of a named model, written only when training succeeded.
const modelsSchema = `CREATE TABLE IF NOT EXISTS mlops.models (
	name VARCHAR NOT NULL,
	version INTEGER NOT NULL,
	kind VARCHAR NOT NULL,
	entities VARCHAR[] NOT NULL,
	time_columns VARCHAR[] NOT NULL,
	scaler VARCHAR,
	source VARCHAR NOT NULL,
	params VARCHAR NOT NULL,
	metrics VARCHAR NOT NULL,
	tail DOUBLE[] NOT NULL,
	weights VARCHAR NOT NULL,
	created_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp,
	PRIMARY KEY (name, version))`

// methodMetrics is one row of evaluate: a method's MSE on the training and
// test samples, in the trained scale and, with a linked scaler, in original units.
type methodMetrics struct {
	Method           string   `json:"method"`
	TrainMSE         float64  `json:"train_mse"`
	TestMSE          float64  `json:"test_mse"`
	TrainMSEOriginal *float64 `json:"train_mse_original,omitempty"`
	TestMSEOriginal  *float64 `json:"test_mse_original,omitempty"`
}

// predictor predicts row t of m for every entity.
type predictor func(m series.Matrix, t int, dst []float64)

// evaluateMethods computes the GAT's and the baselines' metrics on the run's split.
func (j *gatJob) evaluateMethods(m series.Matrix, model *gat.Model) ([]methodMetrics, error) {
	train, test, err := series.Split(m, j.cfg.Window, j.cfg.TrainFraction)
	if err != nil {
		return nil, err
	}
	methods := []struct {
		name string
		p    predictor
	}{{"gat", func(x series.Matrix, t int, dst []float64) { _ = model.Predict(x, t, dst) }}}
	for _, kind := range []baseline.Kind{baseline.KindOLS, baseline.KindConstant, baseline.KindLastValue} {
		b, err := baseline.Fit(kind, m, j.cfg.Window, train)
		if err != nil {
			return nil, fmt.Errorf("fit baseline %s: %w", kind, err)
		}
		methods = append(methods, struct {
			name string
			p    predictor
		}{string(kind), b.Predict})
	}
	out := make([]methodMetrics, len(methods))
	for i, meth := range methods {
		out[i] = methodMetrics{Method: meth.name, TrainMSE: mse(meth.p, m, train, nil), TestMSE: mse(meth.p, m, test, nil)}
		if j.link != nil {
			tr, te := mse(meth.p, m, train, j.link), mse(meth.p, m, test, j.link)
			out[i].TrainMSEOriginal, out[i].TestMSEOriginal = &tr, &te
		}
	}
	return out, nil
}

// mse is the mean squared error of p over samples, in original units when
// link is set.
func mse(p predictor, m series.Matrix, samples []int, link *scaleLink) float64 {
	pred := make([]float64, m.N)
	sum := 0.0
	for _, t := range samples {
		p(m, t, pred)
		for i := range m.N {
			y, q := m.At(t, i), pred[i]
			if link != nil {
				y, q = link.scaler.Invert(link.column[i], y), link.scaler.Invert(link.column[i], q)
			}
			sum += (q - y) * (q - y)
		}
	}
	return sum / float64(len(samples)*m.N)
}

// save stores the trained model as the next version of its name.
func (j *gatJob) save(ctx context.Context, m series.Matrix, model *gat.Model) error {
	metrics, err := j.evaluateMethods(m, model)
	if err != nil {
		return err
	}
	weights, err := model.Marshal()
	if err != nil {
		return err
	}
	params, _ := json.Marshal(j.cfg)
	metricsJSON, _ := json.Marshal(metrics)
	var times []string
	for _, i := range j.w.times {
		times = append(times, j.w.src.cols[i].Name)
	}
	tail := m.Values[(m.T-j.cfg.Window)*m.N:]
	var scaler any
	if j.scaler != "" {
		scaler = j.scaler
	}
	_, err = j.c.db.SQL().ExecContext(ctx, `INSERT INTO mlops.models
		(name, version, kind, entities, time_columns, scaler, source, params, metrics, tail, weights)
		SELECT ?, coalesce(max(version), 0) + 1, 'gat', ?, ?, ?, ?, ?, ?, ?, ? FROM mlops.models WHERE name = ?`,
		j.name, j.w.entityNames(), times, scaler, j.w.src.text, string(params), string(metricsJSON), tail, string(weights), j.name)
	if err != nil {
		return fmt.Errorf("save model %q: %w", j.name, err)
	}
	return nil
}
