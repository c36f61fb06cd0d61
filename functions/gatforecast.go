//go:build duckdb_arrow

package functions

import (
	"cmp"
	"context"
	"fmt"
	"maps"
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

// link is the version's scaler link, nil without a scaler.
func (s *storedGAT) link(c *call) (*scaleLink, error) {
	if s.scaler == "" {
		return nil, nil
	}
	return linkScaler(c, s.scaler, s.Entities)
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
	if _, ok := s.matrix(); !ok && method != "model" {
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s has no stored data (a checkpoint, or stored by an older Mallard), so method := %s is not available",
			fn, s.ref, quote(method)).WithHint("Use method := 'model', or train the model again.")
	}
	return nil
}

// forecast returns steps rows of predictions by method past the data, each
// step's split-conformal half-width at level for each entity (nil without
// validation or data), and for method 'auto' a note of what it chose.
// With entity >= 0 only that entity's predictions are wanted. A version
// that kept its forecast state is forecast from it, fitting nothing;
// 'auto', whose choice depends on steps, and older versions fit.
func (s *storedGAT) forecast(method string, steps int, level float64, entity int) (preds, half [][]float64, note string, err error) {
	m, ok := s.matrix()
	if ok && s.State != nil && method != "auto" {
		preds, kept, err := s.State.Forecast(s.Model, m, methodName(method), steps, entity)
		if err != nil || kept {
			half, _ := s.State.HalfWidths(methodName(method), steps, level)
			return preds, half, "", err
		}
	}
	if !ok {
		n := len(s.Entities)
		preds, err := s.Model.Forecast(series.Matrix{T: len(s.Tail) / n, N: n, Values: s.Tail}, steps)
		return preds, nil, "", err
	}
	fit, val, _, err := s.Model.Config.Samples(m)
	if err != nil {
		return nil, nil, "", err
	}
	fr, note, err := s.fitterOf(m, "forecast", method, fit, val, steps)
	if err != nil {
		return nil, nil, "", err
	}
	f, err := fr(append(slices.Clone(fit), val...))
	if err != nil {
		return nil, nil, "", err
	}
	preds = baseline.Rows(steps, m.N)
	f.Forecast(m, m.T, preds)
	half, err = s.widths(m, fr, fit, val, steps, level)
	return preds, half, note, err
}

// widths are the per-entity half-widths at level for steps 1..steps
// (gat.EntityHalfWidths) of the method fr fits, from its errors over the
// validation samples when fitted on the fitting samples alone; nil
// without validation.
func (s *storedGAT) widths(m series.Matrix, fr fitter, fit, val []int, steps int, level float64) ([][]float64, error) {
	if len(val) == 0 {
		return nil, nil
	}
	vf, err := fr(fit)
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

// fitter fits a forecast method on the training samples it is given.
type fitter func(train []int) (baseline.Forecaster, error)

// fitterOf is the fitter of a forecast method, and a note of what 'auto'
// chose. 'auto' chooses each entity's method (the network or a method of
// the ladder) by its validation MSE over steps 1..h (gat.ChooseEntities),
// fitted on the fitting samples; it then fits the chosen methods on
// whatever samples it is given and forecasts each entity with its own.
func (s *storedGAT) fitterOf(m series.Matrix, fn, method string, fit, val []int, h int) (fitter, string, error) {
	if method != "auto" {
		return func(train []int) (baseline.Forecaster, error) { return s.method(m, train, methodName(method)) }, "", nil
	}
	if len(val) == 0 {
		return nil, "", sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s was trained without validation, so method := 'auto' has nothing to choose by", fn, s.ref).
			WithHint("Train with validation_fraction above 0, or name a method.")
	}
	h = min(h, len(val))
	chosenOn, names, _, err := s.chooseEntities(m, fit, val, h)
	if err != nil {
		return nil, "", err
	}
	fr := func(train []int) (baseline.Forecaster, error) {
		if slices.Equal(train, fit) {
			return perEntity(chosenOn, names)
		}
		fs, _, err := s.ladder(m, train)
		if err != nil {
			return nil, err
		}
		return perEntity(fs, names)
	}
	return fr, fmt.Sprintf("%s: method 'auto' chose each entity's method by its validation MSE over steps 1..%d: %s", fn, h, countNames(names)), nil
}

// chooseEntities fits the version's methods on the fitting samples and
// names each entity's method with the lowest validation MSE over steps
// 1..h (gat.ChooseEntities; the network where none could be measured),
// and that MSE.
func (s *storedGAT) chooseEntities(m series.Matrix, fit, val []int, h int) (fs []baseline.Forecaster, names []string, mse []float64, err error) {
	fs, _, err = s.ladder(m, fit)
	if err != nil {
		return nil, nil, nil, err
	}
	choice, mse := gat.ChooseEntities(fs, m, val[0], val[len(val)-1]+1, h)
	names = make([]string, len(choice))
	for i, c := range choice {
		names[i] = fs[max(c, 0)].Name()
	}
	return fs, names, mse, nil
}

// perEntity forecasts entity i with the member of fs named names[i].
func perEntity(fs []baseline.Forecaster, names []string) (*baseline.PerEntity, error) {
	p := &baseline.PerEntity{Members: fs, Choice: make([]int, len(names))}
	for i, name := range names {
		p.Choice[i] = slices.IndexFunc(fs, func(f baseline.Forecaster) bool { return f.Name() == name })
		if p.Choice[i] < 0 {
			return nil, fmt.Errorf("method %s chosen for entity %d cannot be fitted on these rows", name, i)
		}
	}
	return p, nil
}

// countNames says how many entities each name stands for, most first:
// "gat for 6 entities, ets for 5, theta for 3".
func countNames(names []string) string {
	counts := map[string]int{}
	for _, n := range names {
		counts[n]++
	}
	keys := slices.Collect(maps.Keys(counts))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	parts := make([]string, len(keys))
	for k, name := range keys {
		parts[k] = fmt.Sprintf("%s for %d", name, counts[name])
		if k == 0 && counts[name] != 1 {
			parts[k] += " entities"
		} else if k == 0 {
			parts[k] += " entity"
		}
	}
	return strings.Join(parts, ", ")
}

// method is the named method fitted on the training samples train (see
// ladder); a method the version's ladder left out is refused, not fitted.
func (s *storedGAT) method(m series.Matrix, train []int, name string) (baseline.Forecaster, error) {
	if gat.LeftOut(s.Model.Config, m.N, baseline.Kind(name)) {
		rule, _ := gat.LadderFor(s.Model.Config, m.N)
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method %s was left out of %s's ladder (ladder := %s, by default past %d entities; it has %d)",
			quote(name), s.ref, quote(rule), gat.CatalogueEntities, m.N).WithHint("Choose another method, or train with ladder := 'full'.")
	}
	fs, skipped, err := s.ladder(m, train)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if f.Name() == name {
			return f, nil
		}
	}
	if skipped == nil { // read from the version's fits: fit again for the reasons
		if _, skipped, err = gat.Methods(s.Model, m, train, max(1, s.Model.Config.Season)); err != nil {
			return nil, err
		}
	}
	return nil, sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method %s cannot be fitted on %s's training rows: %v", quote(name), s.ref, skipped).
		WithHint("Choose another method.")
}

// forecastRows are the forecast's rows in original units when linked:
// step, time columns, entity, prediction, lo, hi. An entity whose values
// were never negative gets no negative lower bound.
// With entity >= 0 they are that entity's alone.
func (s *storedGAT) forecastRows(preds, half [][]float64, link *scaleLink, entity int) [][]any {
	value := func(i int, v float64) float64 { return v }
	if link != nil {
		value = link.invert()
	}
	floor := s.floors(value, entity)
	var rows [][]any
	for k, row := range preds {
		times := extrapolate(s.TimeColumns, s.TimeKinds, s.LastTimes, k+1)
		for i, v := range row {
			if entity >= 0 && i != entity {
				continue
			}
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
// there, -Inf for the others and for a version without data. With
// entity >= 0 only that entity's floor is computed (the others are 0).
func (s *storedGAT) floors(value func(i int, v float64) float64, entity int) []float64 {
	floor := make([]float64, len(s.Entities))
	m, ok := s.matrix()
	for i := range floor {
		if entity >= 0 && i != entity {
			continue
		}
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
