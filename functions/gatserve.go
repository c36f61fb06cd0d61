//go:build duckdb_arrow

package functions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

func evaluateFunction() tableFunction {
	return tableFunction{
		sig: signature{fn: "evaluate", positional: []param{{name: "model", kind: kindText, required: true}},
			named: []param{{name: "version", kind: kindInt, min: 1, max: 1 << 31}}},
		bind: bindEvaluate,
	}
}

func forecastFunction() tableFunction {
	return tableFunction{
		sig: signature{fn: "forecast", positional: []param{{name: "model", kind: kindText, required: true}},
			named: []param{{name: "steps", kind: kindInt, min: 1, max: 10_000, def: int64(1)},
				{name: "version", kind: kindInt, min: 1, max: 1 << 31}}},
		bind: bindForecast,
	}
}

// storedGAT is a GAT model version as train_gat stored it.
type storedGAT struct {
	version  int
	entities []string
	scaler   string
	metrics  []gat.Metrics
	tail     []float64
	model    *gat.Model
}

// loadGAT reads version (0: the latest) of the GAT model name.
func loadGAT(ctx context.Context, c *call, fn, name string, version int64) (*storedGAT, error) {
	var s storedGAT
	var entities, tail any
	var scaler sql.NullString
	var metrics, weights string
	err := c.db.SQL().QueryRowContext(ctx, `SELECT version, entities, scaler, metrics, tail, weights FROM mlops.models
		WHERE name = ? AND kind = 'gat' AND (? = 0 OR version = ?) ORDER BY version DESC LIMIT 1`, name, version, version).
		Scan(&s.version, &entities, &scaler, &metrics, &tail, &weights)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sqlstate.New(sqlstate.UndefinedObject, "%s: GAT model %s%s does not exist", fn, quote(name), versionText(version)).
			WithHint("train_gat(..., model := 'name') trains one; SELECT name, version FROM mlops.models lists them.")
	}
	if err != nil {
		return nil, fmt.Errorf("load model %q: %w", name, err)
	}
	for _, e := range entities.([]any) {
		s.entities = append(s.entities, e.(string))
	}
	for _, v := range tail.([]any) {
		s.tail = append(s.tail, v.(float64))
	}
	s.scaler = scaler.String
	if err := json.Unmarshal([]byte(metrics), &s.metrics); err != nil {
		return nil, fmt.Errorf("decode metrics of model %q: %w", name, err)
	}
	if s.model, err = gat.Unmarshal([]byte(weights)); err != nil {
		return nil, err
	}
	return &s, nil
}

func versionText(v int64) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf(" version %d", v)
}

func bindEvaluate(c *call, a args) (*table, error) {
	s, err := loadGAT(c.ctx(), c, "evaluate", a.text("model"), a.int("version"))
	if err != nil {
		return nil, err
	}
	cols := []duckdb.ColumnInfo{{Name: "method", T: varcharType()}, {Name: "train_mse", T: doubleType()}, {Name: "test_mse", T: doubleType()},
		{Name: "train_mse_original", T: doubleType()}, {Name: "test_mse_original", T: doubleType()}}
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		rows := make([][]any, len(s.metrics))
		for i, m := range s.metrics {
			rows[i] = []any{m.Method, m.TrainMSE, m.TestMSE, optional(m.TrainMSEOriginal), optional(m.TestMSEOriginal)}
		}
		return rowsRun(rows), nil
	}}, nil
}

func optional(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

func bindForecast(c *call, a args) (*table, error) {
	s, err := loadGAT(c.ctx(), c, "forecast", a.text("model"), a.int("version"))
	if err != nil {
		return nil, err
	}
	var link *scaleLink
	if s.scaler != "" {
		if link, err = linkScaler(c, s.scaler, s.entities); err != nil {
			return nil, err
		}
	}
	cols := []duckdb.ColumnInfo{{Name: "step", T: bigintType()}, {Name: "entity", T: varcharType()}, {Name: "prediction", T: doubleType()}}
	steps := int(a.int("steps"))
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		n := len(s.entities)
		history := series.Matrix{T: len(s.tail) / n, N: n, Values: s.tail}
		preds, err := s.model.Forecast(history, steps)
		if err != nil {
			return nil, err
		}
		var rows [][]any
		for k, row := range preds {
			for i, v := range row {
				if link != nil {
					v = link.scaler.Invert(link.column[i], v)
				}
				rows = append(rows, []any{int64(k + 1), s.entities[i], v})
			}
		}
		return rowsRun(rows), nil
	}}, nil
}

// rowsRun writes rows held in memory.
func rowsRun(rows [][]any) *run {
	next := 0
	return &run{fill: func(chunk duckdb.DataChunk) (int, error) {
		n := min(len(rows)-next, duckdb.GetDataChunkCapacity())
		for r := range n {
			for col, v := range rows[next+r] {
				if err := chunk.SetValue(col, r, v); err != nil {
					return 0, err
				}
			}
		}
		next += n
		return n, nil
	}}
}
