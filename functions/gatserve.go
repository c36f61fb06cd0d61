//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
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

// storedGAT is a GAT model version as the registry keeps it.
type storedGAT struct {
	*gatArtifact
	ref     mlops.Ref
	scaler  string
	metrics []gat.Metrics // nil for a version that did not finish training
}

// loadGAT reads the GAT model version that the model and version
// arguments name: the deployed one when neither names a version.
func loadGAT(c *call, fn string, a args) (*storedGAT, error) {
	ref, err := modelRef(fn, a)
	if err != nil {
		return nil, err
	}
	m, art, err := c.reg.decoded(c.ctx(), fn, "gat", ref, func(data []byte) (any, error) { return decodeGATArtifact(data) })
	if err != nil {
		return nil, err
	}
	s := &storedGAT{gatArtifact: art.(*gatArtifact), ref: m.ref, scaler: m.scaler}
	if m.metrics != "" {
		if err := json.Unmarshal([]byte(m.metrics), &s.metrics); err != nil {
			return nil, fmt.Errorf("decode metrics of %s: %w", m.ref, err)
		}
	}
	return s, nil
}

func bindEvaluate(c *call, a args) (*table, error) {
	ref, err := modelRef("evaluate", a)
	if err != nil {
		return nil, err
	}
	var kind string
	_ = c.db.SQL().QueryRowContext(c.ctx(), "SELECT kind FROM mlops.models WHERE name = ? LIMIT 1", ref.Name).Scan(&kind)
	if kind == recommenderKind {
		return bindEvaluateRecommender(c, ref)
	}
	s, err := loadGAT(c, "evaluate", a)
	if err != nil {
		return nil, err
	}
	if s.metrics == nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "evaluate: %s did not finish training and has no metrics", s.ref).
			WithHint("Its last checkpoint can still forecast: forecast('%s').", s.ref)
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
	s, err := loadGAT(c, "forecast", a)
	if err != nil {
		return nil, err
	}
	var link *scaleLink
	if s.scaler != "" {
		if link, err = linkScaler(c, s.scaler, s.Entities); err != nil {
			return nil, err
		}
	}
	cols := []duckdb.ColumnInfo{{Name: "step", T: bigintType()}}
	cols = append(cols, timeColumns(s.TimeColumns, s.TimeKinds)...)
	cols = append(cols, duckdb.ColumnInfo{Name: "entity", T: varcharType()}, duckdb.ColumnInfo{Name: "prediction", T: doubleType()})
	steps := int(a.int("steps"))
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		n := len(s.Entities)
		history := series.Matrix{T: len(s.Tail) / n, N: n, Values: s.Tail}
		preds, err := s.Model.Forecast(history, steps)
		if err != nil {
			return nil, err
		}
		times := make([][]any, steps)
		for k := range times {
			times[k] = extrapolate(s.TimeColumns, s.TimeKinds, s.LastTimes, k+1)
		}
		var rows [][]any
		for k, row := range preds {
			for i, v := range row {
				if link != nil {
					v = link.scaler.Invert(link.column[i], v)
				}
				row := append([]any{int64(k + 1)}, times[k]...)
				rows = append(rows, append(row, s.Entities[i], v))
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
