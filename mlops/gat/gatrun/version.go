package gatrun

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// Version is a stored GAT model version as forecast, evaluate,
// evaluate_entities and detect_anomalies serve it: its artifact, the
// version, the scaler it links and the metrics it was stored with.
type Version struct {
	*Artifact
	Ref     mlops.Ref
	Scaler  string
	Metrics []gat.Metrics // nil for a version that did not finish training
	// AutoVal is evaluate's auto: the chosen methods' mean validation
	// MSE, once Horizons ran.
	AutoVal float64
}

// Serving is the version as package gat serves it, its methods fitted by
// ladder.
func (s *Version) Serving() *gat.Serving {
	m, ok := s.Matrix()
	g := &gat.Serving{Model: s.Model, State: s.State, Data: m, HasData: ok, Ladder: s.ladder}
	if n := len(s.Entities); n > 0 {
		g.Tail = series.Matrix{T: len(s.Tail) / n, N: n, Values: s.Tail}
	}
	return g
}

// ServingError words the errors of package gat's serving for fn.
func (s *Version) ServingError(fn string, err error) error {
	var unfit *gat.UnfittableError
	var left *gat.LeftOutError
	switch {
	case errors.As(err, &left):
		return sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method %s was left out of %s's ladder (ladder := %s, by default past %d entities; it has %d)",
			quote(left.Method), s.Ref, quote(left.Ladder), gat.CatalogueEntities, left.Entities).WithHint("Choose another method, or train with ladder := 'full'.")
	case errors.Is(err, gat.ErrNoValidation):
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s was trained without validation, so method := 'auto' has nothing to choose by", fn, s.Ref).
			WithHint("Train with validation_fraction above 0, or name a method.")
	case errors.As(err, &unfit):
		return sqlstate.New(sqlstate.InvalidParameterValue, "forecast: method %s cannot be fitted on %s's training rows: %v", quote(unfit.Method), s.Ref, unfit.Skipped).
			WithHint("Choose another method.")
	}
	return err
}

// EntityArg is the index of the entity fn's entity argument names, -1
// for "" (not given).
func (s *Version) EntityArg(fn string, name string) (int, error) {
	if name == "" {
		return -1, nil
	}
	i := slices.Index(s.Entities, name)
	if i < 0 {
		return 0, sqlstate.New(sqlstate.InvalidParameterValue, "%s: entity := %s is not an entity of %s", fn, quote(name), s.Ref).
			WithHint("Name one of the %d entities the model was trained on, as forecast lists them.", len(s.Entities))
	}
	return i, nil
}

// NeedsData refuses a method other than the network's for a version
// without its data.
func (s *Version) NeedsData(fn, method string) error {
	if _, ok := s.Matrix(); !ok && method != "model" {
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s has no stored data (a checkpoint, or stored by an older Mallard), so method := %s is not available",
			fn, s.Ref, quote(method)).WithHint("Use method := 'model', or train the model again.")
	}
	return nil
}

// Forecast returns steps rows of predictions by method past the data and
// their half-widths at level (see gat.Serving.Forecast), and for method
// 'auto' a note of what it chose.
func (s *Version) Forecast(method string, steps int, level float64, entity int) (preds, half [][]float64, note string, err error) {
	preds, half, choice, err := s.Serving().Forecast(method, steps, level, entity)
	if err != nil {
		return nil, nil, "", s.ServingError("forecast", err)
	}
	if choice != nil {
		note = fmt.Sprintf("forecast: method 'auto' chose each entity's method by its validation MSE over steps 1..%d: %s", choice.Horizon, choice.Summary())
	}
	return preds, half, note, nil
}

// ForecastRows are the forecast's rows in original units when linked:
// step, time columns, entity, prediction, lo, hi. An entity whose values
// were never negative gets no negative lower bound.
// With entity >= 0 they are that entity's alone.
func (s *Version) ForecastRows(preds, half [][]float64, link *Link, entity int) [][]any {
	value := func(i int, v float64) float64 { return v }
	if link != nil {
		value = link.Invert()
	}
	floor := s.Serving().Floors(value, entity)
	first, end := 0, len(s.Entities)
	if entity >= 0 {
		first, end = entity, entity+1
	}
	var rows [][]any
	for k, row := range preds {
		times := Extrapolate(s.TimeColumns, s.TimeKinds, s.LastTimes, k+1)
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
func (s *Version) ladder(m series.Matrix, train []int) (fs []baseline.Forecaster, skipped []error, err error) {
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

// Anomalies are detect_anomalies' rows for every row of the version's data
// that method can forecast.
func (s *Version) Anomalies(method string, level float64, link *Link) ([][]any, error) {
	g := s.Serving()
	from, expected, half, err := g.Anomalies(method, level, link.Units())
	if err != nil {
		return nil, s.ServingError("detect_anomalies", err)
	}
	m := g.Data
	value := func(i int, v float64) float64 { return v }
	if link != nil {
		value = link.Invert()
	}
	floor := g.Floors(value, -1)
	var rows [][]any
	for t := from; t < m.T; t++ {
		times := Extrapolate(s.TimeColumns, s.TimeKinds, s.LastTimes, t-(m.T-1))
		for i, name := range s.Entities {
			y, q, h := m.At(t, i), expected.At(t-from, i), half[i]
			score := math.Abs(y-q) / h
			row := append(slices.Clone(times), name, value(i, y), value(i, q), max(value(i, q-h), floor[i]), value(i, q+h), score, score > 1)
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// Horizons scores every method at steps 1..h from each test origin, in
// original units where link, asked once the methods are scored, gives a
// scaler; nil for a version stored before versions kept their data (h
// must be 1).
func (s *Version) Horizons(h int, link func() (*Link, error)) ([]gat.Step, error) {
	m, ok := s.Matrix()
	if !ok {
		if h > 1 {
			return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "evaluate: %s was stored without its data, so only horizon 1 is known", s.Ref).
				WithHint("Train it again to score longer horizons.")
		}
		return nil, nil
	}
	cfg := s.Model.Config
	fit, val, test, err := cfg.Samples(m)
	if err != nil {
		return nil, err
	}
	if h > len(test) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "evaluate: horizon := %d is beyond the test span of %d rows", h, len(test)).
			WithHint("Choose a horizon from 1 to %d.", len(test))
	}
	g := s.Serving()
	fs, autoVal, err := g.Scored(fit, val, h)
	if err != nil {
		return nil, err
	}
	s.AutoVal = autoVal
	l, err := link()
	if err != nil {
		return nil, err
	}
	return g.Steps(fs, test[0], h, l.Invert()), nil
}
