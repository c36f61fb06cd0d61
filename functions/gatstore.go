//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"

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

// save stores the trained model as the next version of its name.
func (j *gatJob) save(ctx context.Context, m series.Matrix, model *gat.Model) error {
	metrics, err := gat.Evaluate(model, m, j.link.invert())
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
