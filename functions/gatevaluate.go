//go:build duckdb_arrow

package functions

import (
	"context"
	"slices"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/sqlstate"
)

func evaluateFunction() tableFunction {
	return typedFunction("evaluate", nil, bindEvaluate, nil)
}

// evaluateColumns are evaluate's columns for a GAT: today's one-step
// columns first, then the horizon's.
func evaluateColumns() []duckdb.ColumnInfo {
	cols := []duckdb.ColumnInfo{{Name: "method", T: varcharType()}}
	for _, name := range []string{"train_mse", "test_mse", "train_mse_original", "test_mse_original", "val_mse"} {
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
	}
	cols = append(cols, duckdb.ColumnInfo{Name: "horizon", T: bigintType()})
	for _, name := range []string{"mse", "rmse", "mae", "mase", "rel_mse", "mse_original", "rmse_original", "mae_original"} {
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
	}
	return cols
}

func bindEvaluate(c *call, o *evaluateArgs) (*table, error) {
	ref, err := o.ref("evaluate")
	if err != nil {
		return nil, err
	}
	if kinds, _ := c.reg.Kinds(c.ctx(), ref.Name); len(kinds) > 0 && kinds[0] == recommenderKind {
		return bindEvaluateRecommender(c, ref, o.Protocol)
	} else if len(kinds) > 0 && (kinds[0] == classifierKind || kinds[0] == regressorKind) {
		return bindEvaluateSupervised(c, ref, kinds[0], o)
	}
	s, err := loadGAT(c, "evaluate", o.modelVersion)
	if err != nil {
		return nil, err
	}
	if o.Protocol != "" {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "evaluate: protocol applies to recommenders, and %s is a GAT", s.Ref)
	}
	if s.Metrics == nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "evaluate: %s did not finish training and has no metrics", s.Ref).
			WithHint("Its last checkpoint can still forecast: forecast('%s').", s.Ref)
	}
	h := o.Horizon
	steps, err := s.Horizons(h, func() (*gatrun.Link, error) { return versionLink(c, s) })
	if err != nil {
		return nil, err
	}
	return &table{cols: evaluateColumns(), open: func(context.Context) (*run, error) {
		return rowsRun(evaluateRows(s.Metrics, steps, s.AutoVal)), nil
	}}, nil
}

// evaluateRows are one row per method and step: the stored one-step
// metrics on the horizon-1 rows, the horizon's scores on every row. The
// row auto, chosen at this call, has its step-1 test MSE and autoVal, the
// chosen methods' mean validation MSE (the lowest of each entity's, so an
// optimistic figure), as its one-step columns.
func evaluateRows(metrics []gat.Metrics, steps []gat.Step, autoVal float64) [][]any {
	var rows [][]any
	if steps == nil {
		for _, m := range metrics {
			rows = append(rows, append(oneStepColumns(m), int64(1), nil, nil, nil, nil, nil, nil, nil, nil))
		}
		return rows
	}
	for _, st := range steps {
		row := []any{st.Method, nil, nil, nil, nil, nil}
		if i := slices.IndexFunc(metrics, func(m gat.Metrics) bool { return m.Method == st.Method }); i >= 0 && st.Horizon == 1 {
			row = oneStepColumns(metrics[i])
		} else if st.Method == string(baseline.KindAuto) && st.Horizon == 1 {
			row = []any{st.Method, nil, st.MSE, nil, optional(st.MSEOriginal), autoVal}
		}
		rows = append(rows, append(row, int64(st.Horizon), st.MSE, st.RMSE, st.MAE, nanNull(st.MASE), nanNull(st.RelMSE),
			optional(st.MSEOriginal), optional(st.RMSEOriginal), optional(st.MAEOriginal)))
	}
	return rows
}

func oneStepColumns(m gat.Metrics) []any {
	return []any{m.Method, m.TrainMSE, m.TestMSE, optional(m.TrainMSEOriginal), optional(m.TestMSEOriginal), optional(m.ValMSE)}
}

func optional(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// nanNull is v, or NULL for NaN (a score with nothing to average).
func nanNull(v float64) any {
	if v != v {
		return nil
	}
	return v
}
