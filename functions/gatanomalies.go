//go:build duckdb_arrow

package functions

import (
	"context"
	"math"
	"slices"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/gat/gatrun"
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
	if _, ok := s.Matrix(); !ok || s.metrics == nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s has no stored data (a checkpoint, or stored by an older Mallard)", detectAnomaliesName, s.ref).
			WithHint("Train the model to the end, or again.")
	}
	link, err := s.link(c)
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
		rows, err := s.anomalies(method, level, link)
		if err != nil {
			return nil, err
		}
		return rowsRun(rows), nil
	}}, nil
}

// anomalies are detect_anomalies' rows for every row of the version's data
// that method can forecast.
func (s *storedGAT) anomalies(method string, level float64, link *gatrun.Link) ([][]any, error) {
	g := s.serving()
	from, expected, half, err := g.Anomalies(method, level, link.Units())
	if err != nil {
		return nil, s.servingError(detectAnomaliesName, err)
	}
	m := g.Data
	value := func(i int, v float64) float64 { return v }
	if link != nil {
		value = link.Invert()
	}
	floor := g.Floors(value, -1)
	var rows [][]any
	for t := from; t < m.T; t++ {
		times := gatrun.Extrapolate(s.TimeColumns, s.TimeKinds, s.LastTimes, t-(m.T-1))
		for i, name := range s.Entities {
			y, q, h := m.At(t, i), expected.At(t-from, i), half[i]
			score := math.Abs(y-q) / h
			row := append(slices.Clone(times), name, value(i, y), value(i, q), max(value(i, q-h), floor[i]), value(i, q+h), score, score > 1)
			rows = append(rows, row)
		}
	}
	return rows, nil
}
