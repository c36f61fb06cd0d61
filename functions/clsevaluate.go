//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// bindEvaluateSupervised is evaluate for a classifier or regressor: one
// row per method (the model's architecture, then the linear model and
// the trivial baseline) with the figures training measured on the test
// rows, whether the version serves it, and its validation loss.
func bindEvaluateSupervised(c *call, ref mlops.Ref, kind string, o *evaluateArgs) (*table, error) {
	for _, arg := range []struct {
		field   any
		applies string
	}{{&o.Protocol, "recommenders"}, {&o.Horizon, "GATs"}} {
		if o.explicit(arg.field) {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "evaluate: %s applies to %s, and %s is a %s", o.name(arg.field),
				arg.applies, quote(ref.Name), kind)
		}
	}
	m, err := c.reg.Describe(c.ctx(), kind, ref)
	if err != nil {
		return nil, registryError("evaluate", err)
	}
	if m.Metrics == "" {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "evaluate: %s did not finish training and has no metrics", m.Ref).
			WithHint("Its last checkpoint can still predict: predict('%s', source := ...).", m.Ref)
	}
	var metrics []classifier.Recorded
	if err := json.Unmarshal([]byte(m.Metrics), &metrics); err != nil {
		return nil, fmt.Errorf("decode metrics of %s: %w", m.Ref, err)
	}
	cols := []duckdb.ColumnInfo{{Name: "method", T: varcharType()}, {Name: "rows", T: bigintType()}, {Name: "served", T: boolType()},
		{Name: "val_loss", T: doubleType()}}
	if kind == regressorKind {
		for _, name := range []string{"rmse", "mae", "r2"} {
			cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
		}
	}
	var ct classifier.ClassType
	if kind == classifierKind {
		if ct, err = versionClassType(c, "evaluate", m.Ref); err != nil {
			return nil, err
		}
		for _, name := range []string{"accuracy", "macro_f1", "log_loss"} {
			cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
		}
		// Keyed by the class as text, whatever the label's type: a MAP
		// reaches clients as a JSON object, whose keys are text.
		perClass, _ := duckdb.NewMapInfo(varcharType(), doubleType())
		cols = append(cols, duckdb.ColumnInfo{Name: "precision", T: perClass}, duckdb.ColumnInfo{Name: "recall", T: perClass})
	}
	rows := make([][]any, len(metrics))
	for i, x := range metrics {
		rows[i] = []any{x.Method, int64(x.Rows), x.Served, optional(x.ValLoss)}
		if kind == regressorKind {
			rows[i] = append(rows[i], optional(x.RMSE), optional(x.MAE), optional(x.R2))
			continue
		}
		rows[i] = append(rows[i], optional(x.Accuracy), optional(x.MacroF1), optional(x.LogLoss), perClassMap(x.Precision, ct), perClassMap(x.Recall, ct))
	}
	return &table{cols: cols, open: func(context.Context) (*run, error) { return rowsRun(rows), nil }}, nil
}

// perClassMap is a MAP of class (as text) to figure, classes in ct's
// order; NULL for none (no test rows).
func perClassMap(v map[string]*float64, ct classifier.ClassType) any {
	if len(v) == 0 {
		return nil
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	var m duckdb.OrderedMap
	for _, k := range ct.Sorted(keys) {
		m.Set(k, optional(v[k]))
	}
	return m
}
