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
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

func forecastFunction() tableFunction {
	return tableFunction{
		sig: signature{fn: "forecast", positional: []param{{name: "model", kind: kindText, required: true}},
			named: []param{{name: "steps", kind: kindInt, min: 1, max: 10_000, def: int64(1)},
				{name: "version", kind: kindInt, min: 1, max: 1 << 31},
				{name: "method", kind: kindText, def: "model"},
				{name: "level", kind: kindFloat, min: 0, max: 1, minOpen: true, maxOpen: true, def: 0.9}}},
		bind: bindForecast,
	}
}

// forecastMethods are the names forecast's method accepts.
func forecastMethods() []string {
	names := []string{"model", "auto"}
	for _, k := range baseline.Kinds() {
		names = append(names, string(k))
	}
	return names
}

// link is the version's scaler link, nil without a scaler.
func (s *storedGAT) link(c *call) (*scaleLink, error) {
	if s.scaler == "" {
		return nil, nil
	}
	return linkScaler(c, s.scaler, s.Entities)
}

func bindForecast(c *call, a args) (*table, error) {
	method := a.text("method")
	if !slices.Contains(forecastMethods(), method) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method := %s is not a method", quote(method)).
			WithHint("Choose one of %s.", strings.Join(forecastMethods(), ", "))
	}
	s, err := loadGAT(c, "forecast", a)
	if err != nil {
		return nil, err
	}
	link, err := s.link(c)
	if err != nil {
		return nil, err
	}
	method, note, err := s.choose(method)
	if err != nil {
		return nil, err
	}
	cols := []duckdb.ColumnInfo{{Name: "step", T: bigintType()}}
	cols = append(cols, timeColumns(s.TimeColumns, s.TimeKinds)...)
	cols = append(cols, duckdb.ColumnInfo{Name: "entity", T: varcharType()}, duckdb.ColumnInfo{Name: "prediction", T: doubleType()},
		duckdb.ColumnInfo{Name: "lo", T: doubleType()}, duckdb.ColumnInfo{Name: "hi", T: doubleType()})
	steps, level := int(a.int("steps")), a.float("level")
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		if note != "" { // at execution, not bind, which DuckDB may repeat
			c.caller.Notice(note)
		}
		preds, half, err := s.forecast(method, steps, level)
		if err != nil {
			return nil, err
		}
		return rowsRun(s.forecastRows(preds, half, link)), nil
	}}, nil
}

// choose resolves method: "auto" is the method with the lowest validation
// MSE, which note says; a baseline needs the version's data.
func (s *storedGAT) choose(method string) (chosen, note string, err error) {
	if _, ok := s.matrix(); !ok && method != "model" {
		return "", "", sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "forecast: %s has no stored data (a checkpoint, or stored by an older Mallard), so method := %s is not available",
			s.ref, quote(method)).WithHint("Use method := 'model', or train the model again.")
	}
	if method != "auto" {
		return method, "", nil
	}
	best, bestVal := "", math.Inf(1)
	for _, m := range s.metrics {
		if m.ValMSE != nil && *m.ValMSE < bestVal {
			best, bestVal = m.Method, *m.ValMSE
		}
	}
	if best == "" {
		return "", "", sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "forecast: %s was trained without validation, so method := 'auto' has nothing to choose by", s.ref).
			WithHint("Train with validation_fraction above 0, or name a method.")
	}
	note = fmt.Sprintf("forecast: method 'auto' chose %s, the lowest validation MSE (%.6g) of %s", best, bestVal, s.ref)
	if best == gat.ModelMethod {
		best = "model"
	}
	return best, note, nil
}

// forecast returns steps rows of predictions by method past the data, and
// each step's split-conformal half-width at level for each entity (nil
// without validation or data).
func (s *storedGAT) forecast(method string, steps int, level float64) ([][]float64, [][]float64, error) {
	m, ok := s.matrix()
	if !ok {
		n := len(s.Entities)
		preds, err := s.Model.Forecast(series.Matrix{T: len(s.Tail) / n, N: n, Values: s.Tail}, steps)
		return preds, nil, err
	}
	f, fit, val, err := s.fitted(m, method)
	if err != nil {
		return nil, nil, err
	}
	preds := baseline.Rows(steps, m.N)
	f.Forecast(m, m.T, preds)
	half, err := s.widths(m, method, fit, val, steps, level)
	return preds, half, err
}

// fitted is method (a forecast method name) fitted on the version's
// fitting and validation samples, and those samples.
func (s *storedGAT) fitted(m series.Matrix, method string) (f baseline.Forecaster, fit, val []int, err error) {
	fit, val, _, err = s.Model.Config.Samples(m)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err = s.method(m, append(slices.Clone(fit), val...), methodName(method))
	return f, fit, val, err
}

// widths are method's per-entity half-widths at level for steps 1..steps
// (gat.EntityHalfWidths), from its errors over the validation samples
// when fitted on the fitting samples alone; nil without validation.
func (s *storedGAT) widths(m series.Matrix, method string, fit, val []int, steps int, level float64) ([][]float64, error) {
	if len(val) == 0 {
		return nil, nil
	}
	vf, err := s.method(m, fit, methodName(method))
	if err != nil {
		return nil, err
	}
	return gat.EntityHalfWidths(gat.EntityResiduals(vf, m, val[0], val[len(val)-1]+1, steps), level), nil
}

// methodName is the forecaster name of a forecast method.
func methodName(method string) string {
	if method == "model" {
		return gat.ModelMethod
	}
	return method
}

// method fits the named method on the training samples train.
func (s *storedGAT) method(m series.Matrix, train []int, name string) (baseline.Forecaster, error) {
	fs, skipped, err := gat.Methods(s.Model, m, train, max(1, s.Model.Config.Season))
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if f.Name() == name {
			return f, nil
		}
	}
	return nil, sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method %s cannot be fitted on %s's training rows: %v", quote(name), s.ref, skipped).
		WithHint("Choose another method.")
}

// forecastRows are the forecast's rows in original units when linked:
// step, time columns, entity, prediction, lo, hi. An entity whose values
// were never negative gets no negative lower bound.
func (s *storedGAT) forecastRows(preds, half [][]float64, link *scaleLink) [][]any {
	value := func(i int, v float64) float64 { return v }
	if link != nil {
		value = link.invert()
	}
	floor := s.floors(value)
	var rows [][]any
	for k, row := range preds {
		times := extrapolate(s.TimeColumns, s.TimeKinds, s.LastTimes, k+1)
		for i, v := range row {
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

// floors are the lowest value each entity's interval may reach in the
// units value maps to: 0 for an entity none of whose values was negative
// there, -Inf for the others and for a version without data.
func (s *storedGAT) floors(value func(i int, v float64) float64) []float64 {
	floor := make([]float64, len(s.Entities))
	m, ok := s.matrix()
	for i := range floor {
		if !ok {
			floor[i] = math.Inf(-1)
			continue
		}
		for t := range m.T {
			if value(i, m.At(t, i)) < 0 {
				floor[i] = math.Inf(-1)
				break
			}
		}
	}
	return floor
}
