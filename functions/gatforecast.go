//go:build duckdb_arrow

package functions

import (
	"context"
	"slices"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/sqlstate"
)

func forecastFunction() tableFunction {
	return typedFunction("forecast", nil, bindForecast, nil)
}

// forecastMethods are the names forecast's method accepts.
func forecastMethods() []string {
	names := []string{"model", "auto", gat.MethodNoGraph, gat.MethodGraph}
	for _, k := range baseline.Kinds() {
		names = append(names, string(k))
	}
	return names
}

func bindForecast(c *call, o *forecastArgs) (*table, error) {
	method := o.Method
	if !slices.Contains(forecastMethods(), method) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method := %s is not a method", quote(method)).
			WithHint("Choose one of %s.", strings.Join(forecastMethods(), ", "))
	}
	s, err := loadGAT(c, "forecast", o.modelVersion)
	if err != nil {
		return nil, err
	}
	link, err := versionLink(c, s)
	if err != nil {
		return nil, err
	}
	if err := s.NeedsData("forecast", method); err != nil {
		return nil, err
	}
	cols := []duckdb.ColumnInfo{{Name: "step", T: bigintType()}}
	cols = append(cols, timeColumns(s.TimeColumns, s.TimeKinds)...)
	cols = append(cols, duckdb.ColumnInfo{Name: "entity", T: varcharType()}, duckdb.ColumnInfo{Name: "prediction", T: doubleType()},
		duckdb.ColumnInfo{Name: "lo", T: doubleType()}, duckdb.ColumnInfo{Name: "hi", T: doubleType()})
	entity, err := s.EntityArg("forecast", o.Entity)
	if err != nil {
		return nil, err
	}
	steps, level := o.Steps, o.Level
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		preds, half, note, err := s.Forecast(method, steps, level, entity)
		if err != nil {
			return nil, err
		}
		if note != "" { // at execution, not bind, which DuckDB may repeat
			c.caller.Notice(note)
		}
		return rowsRun(s.ForecastRows(preds, half, link, entity)), nil
	}}, nil
}
