//go:build duckdb_arrow

package functions

import (
	"context"
	"slices"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/sqlstate"
)

const detectAnomaliesName = "detect_anomalies"

func detectAnomaliesFunction() tableFunction {
	return typedFunction(detectAnomaliesName, nil, bindDetectAnomalies, nil)
}

// bindDetectAnomalies scores every row of a GAT version's data against
// the one-step forecast of method (see gat.Expected) and the entity's
// split-conformal interval at level: time columns, entity, value,
// expected, lo, hi (in original units when a scaler is linked), score (the
// distance from the forecast in half-widths of the interval) and
// is_anomaly (the value lies outside the interval).
func bindDetectAnomalies(c *call, o *anomaliesArgs) (*table, error) {
	method := o.Method
	if !slices.Contains(forecastMethods(), method) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: method := %s is not a method", detectAnomaliesName, quote(method)).
			WithHint("Choose one of %s.", strings.Join(forecastMethods(), ", "))
	}
	s, err := loadGAT(c, detectAnomaliesName, o.modelVersion)
	if err != nil {
		return nil, err
	}
	if _, ok := s.Matrix(); !ok || s.Metrics == nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s has no stored data (a checkpoint, or stored by an older Mallard)", detectAnomaliesName, s.Ref).
			WithHint("Train the model to the end, or again.")
	}
	link, err := versionLink(c, s)
	if err != nil {
		return nil, err
	}
	cols := timeColumns(s.TimeColumns, s.TimeKinds)
	cols = append(cols, duckdb.ColumnInfo{Name: "entity", T: varcharType()})
	for _, name := range []string{"value", "expected", "lo", "hi", "score"} {
		cols = append(cols, duckdb.ColumnInfo{Name: name, T: doubleType()})
	}
	cols = append(cols, duckdb.ColumnInfo{Name: "is_anomaly", T: boolType()})
	level := o.Level
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		rows, err := s.Anomalies(method, level, link)
		if err != nil {
			return nil, err
		}
		return rowsRun(rows), nil
	}}, nil
}
