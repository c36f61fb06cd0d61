//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/mlops/series"
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
	link, err := s.link(c)
	if err != nil {
		return nil, err
	}
	if err := s.needsData("forecast", method); err != nil {
		return nil, err
	}
	cols := []duckdb.ColumnInfo{{Name: "step", T: bigintType()}}
	cols = append(cols, timeColumns(s.TimeColumns, s.TimeKinds)...)
	cols = append(cols, duckdb.ColumnInfo{Name: "entity", T: varcharType()}, duckdb.ColumnInfo{Name: "prediction", T: doubleType()},
		duckdb.ColumnInfo{Name: "lo", T: doubleType()}, duckdb.ColumnInfo{Name: "hi", T: doubleType()})
	entity, err := s.entityArg("forecast", o.Entity)
	if err != nil {
		return nil, err
	}
	steps, level := o.Steps, o.Level
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		preds, half, note, err := s.forecast(method, steps, level, entity)
		if err != nil {
			return nil, err
		}
		if note != "" { // at execution, not bind, which DuckDB may repeat
			c.caller.Notice(note)
		}
		return rowsRun(s.forecastRows(preds, half, link, entity)), nil
	}}, nil
}

// entityArg is the index of the entity fn's entity argument names, -1
// for "" (not given).
func (s *storedGAT) entityArg(fn string, name string) (int, error) {
	if name == "" {
		return -1, nil
	}
	i := slices.Index(s.Entities, name)
	if i < 0 {
		return 0, sqlstate.New(sqlstate.InvalidParameterValue, "%s: entity := %s is not an entity of %s", fn, quote(name), s.ref).
			WithHint("Name one of the %d entities the model was trained on, as forecast lists them.", len(s.Entities))
	}
	return i, nil
}

// needsData refuses a method other than the network's for a version
// without its data.
func (s *storedGAT) needsData(fn, method string) error {
	if _, ok := s.Matrix(); !ok && method != "model" {
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s has no stored data (a checkpoint, or stored by an older Mallard), so method := %s is not available",
			fn, s.ref, quote(method)).WithHint("Use method := 'model', or train the model again.")
	}
	return nil
}

// forecast returns steps rows of predictions by method past the data and
// their half-widths at level (see gat.Serving.Forecast), and for method
// 'auto' a note of what it chose.
func (s *storedGAT) forecast(method string, steps int, level float64, entity int) (preds, half [][]float64, note string, err error) {
	preds, half, choice, err := s.serving().Forecast(method, steps, level, entity)
	if err != nil {
		return nil, nil, "", s.servingError("forecast", err)
	}
	if choice != nil {
		note = fmt.Sprintf("forecast: method 'auto' chose each entity's method by its validation MSE over steps 1..%d: %s", choice.Horizon, choice.Summary())
	}
	return preds, half, note, nil
}

// forecastRows are the forecast's rows in original units when linked:
// step, time columns, entity, prediction, lo, hi. An entity whose values
// were never negative gets no negative lower bound.
// With entity >= 0 they are that entity's alone.
func (s *storedGAT) forecastRows(preds, half [][]float64, link *gatrun.Link, entity int) [][]any {
	value := func(i int, v float64) float64 { return v }
	if link != nil {
		value = link.Invert()
	}
	floor := s.serving().Floors(value, entity)
	first, end := 0, len(s.Entities)
	if entity >= 0 {
		first, end = entity, entity+1
	}
	var rows [][]any
	for k, row := range preds {
		times := gatrun.Extrapolate(s.TimeColumns, s.TimeKinds, s.LastTimes, k+1)
		for i := first; i < end; i++ {
			v := row[i]
			var lo, hi any
			if half != nil && !math.IsInf(half[k][i], 1) {
				lo, hi = max(value(i, v-half[k][i]), floor[i]), value(i, v+half[k][i])
			}
			r := append([]any{int64(k + 1)}, times...)
			rows = append(rows, append(r, s.Entities[i], value(i, v), lo, hi))
		}
	}
	return rows
}

// ladder is the version's methods fitted on the samples train of m, as
// gat.Methods fits them, and those it could not fit: read from the fits
// the version kept (gat.ForecastState.Ladder; skipped is then nil) where
// train are its training samples or its fitting samples, else fitted.
func (s *storedGAT) ladder(m series.Matrix, train []int) (fs []baseline.Forecaster, skipped []error, err error) {
	if s.State != nil && s.State.Rows == m.T {
		fit, val, _, err := s.Model.Config.Samples(m)
		if err != nil {
			return nil, nil, err
		}
		ok := false
		switch {
		case slices.Equal(train, append(slices.Clone(fit), val...)):
			fs, ok, err = s.State.Ladder(s.Model, false)
		case slices.Equal(train, fit):
			fs, ok, err = s.State.Ladder(s.Model, true)
		}
		if ok || err != nil {
			return fs, nil, err
		}
	}
	return gat.Methods(s.Model, m, train, max(1, s.Model.Config.Season))
}
