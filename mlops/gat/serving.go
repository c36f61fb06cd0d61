package gat

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// Ladder fits a stored version's methods (the network and the ladder of
// baselines, as Methods fits them) on the samples train of m, and says
// which it could not fit; skipped is nil when the fits were read from what
// the version kept rather than fitted.
type Ladder func(m series.Matrix, train []int) (fs []baseline.Forecaster, skipped []error, err error)

// Fitter fits a forecast method on the training samples it is given.
type Fitter func(train []int) (baseline.Forecaster, error)

// Serving forecasts from a stored version: the network, the data it was
// trained on and the forecast state it kept, where it kept them. Its
// forecast methods are "model" (the version's network), "auto" (each
// entity's method chosen on validation) and a method's name among those
// Ladder fits.
type Serving struct {
	Model *Model
	// State is what a forecast reads instead of fitting the ladder again;
	// nil for a version stored before versions kept it.
	State *ForecastState
	// Data is every row the version was trained and tested on; HasData is
	// false for a checkpoint or a version stored before versions kept it.
	Data    series.Matrix
	HasData bool
	// Tail is the last window of the series, which a version without data
	// is forecast from.
	Tail   series.Matrix
	Ladder Ladder
}

// ErrNoValidation is the error of method "auto" for a version trained
// without validation rows: there is nothing to choose by.
var ErrNoValidation = errors.New("trained without validation, so method 'auto' has nothing to choose by")

// UnfittableError is the error of a method that cannot be fitted on the
// version's training rows, with the reasons the ladder gave.
type UnfittableError struct {
	Method  string
	Skipped []error
}

func (e *UnfittableError) Error() string {
	return fmt.Sprintf("method %s cannot be fitted on the training rows: %v", e.Method, e.Skipped)
}

// LeftOutError is a method the version's ladder left out (see LadderFor):
// refused rather than fitted on every entity at call time.
type LeftOutError struct {
	Method, Ladder string
	Entities       int
}

func (e *LeftOutError) Error() string {
	return fmt.Sprintf("method %s was left out of the ladder (ladder %s, %d entities)", e.Method, e.Ladder, e.Entities)
}

// Choice is what method "auto" chose: each entity's method (Names, by
// entity) by its validation MSE over steps 1..Horizon.
type Choice struct {
	Horizon int
	Names   []string
}

// MethodName is the forecaster name of a forecast method.
func MethodName(method string) string {
	if method == "model" {
		return ModelMethod
	}
	return method
}

// Forecast returns steps rows of predictions by method past the data, each
// step's split-conformal half-width at level for each entity (nil without
// validation or data), and for method "auto" what it chose. With entity
// >= 0 only that entity's predictions are wanted. A version that kept its
// forecast state is forecast from it, fitting nothing; "auto", whose
// choice depends on steps, and older versions fit.
func (s *Serving) Forecast(method string, steps int, level float64, entity int) (preds, half [][]float64, choice *Choice, err error) {
	m, ok := s.Data, s.HasData
	if ok && s.State != nil && method != "auto" {
		preds, kept, err := s.State.Forecast(s.Model, m, MethodName(method), steps, entity)
		if err != nil || kept {
			half, _ := s.State.HalfWidthsOf(MethodName(method), steps, level, entity)
			return preds, half, nil, err
		}
	}
	if !ok {
		preds, err := s.Model.Forecast(s.Tail, steps)
		return preds, nil, nil, err
	}
	fit, val, _, err := s.Model.Config.Samples(m)
	if err != nil {
		return nil, nil, nil, err
	}
	fr, choice, err := s.FitterOf(method, fit, val, steps)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := fr(append(slices.Clone(fit), val...))
	if err != nil {
		return nil, nil, nil, err
	}
	preds = baseline.Rows(steps, m.N)
	f.Forecast(m, m.T, preds)
	half, err = s.HalfWidths(fr, fit, val, steps, level)
	return preds, half, choice, err
}

// HalfWidths are the per-entity half-widths at level for steps 1..steps
// (EntityHalfWidths) of the method fr fits, from its errors over the
// validation samples when fitted on the fitting samples alone; nil
// without validation.
func (s *Serving) HalfWidths(fr Fitter, fit, val []int, steps int, level float64) ([][]float64, error) {
	if len(val) == 0 {
		return nil, nil
	}
	vf, err := fr(fit)
	if err != nil {
		return nil, err
	}
	return EntityHalfWidths(EntityResiduals(vf, s.Data, val[0], val[len(val)-1]+1, steps), level), nil
}

// FitterOf is the fitter of a forecast method on the data, and for "auto"
// what it chose. "auto" chooses each entity's method (the network or a
// method of the ladder) by its validation MSE over steps 1..h
// (ChooseEntities), fitted on the fitting samples; it then fits the chosen
// methods on whatever samples it is given and forecasts each entity with
// its own. Without validation "auto" fails with ErrNoValidation.
func (s *Serving) FitterOf(method string, fit, val []int, h int) (Fitter, *Choice, error) {
	if method != "auto" {
		return func(train []int) (baseline.Forecaster, error) { return s.Method(train, MethodName(method)) }, nil, nil
	}
	if len(val) == 0 {
		return nil, nil, ErrNoValidation
	}
	h = min(h, len(val))
	chosenOn, names, _, err := s.Choose(fit, val, h)
	if err != nil {
		return nil, nil, err
	}
	fr := func(train []int) (baseline.Forecaster, error) {
		if slices.Equal(train, fit) {
			return PerEntity(chosenOn, names)
		}
		fs, _, err := s.Ladder(s.Data, train)
		if err != nil {
			return nil, err
		}
		return PerEntity(fs, names)
	}
	return fr, &Choice{Horizon: h, Names: names}, nil
}

// Method is the named method fitted on the training samples train (see
// Ladder); a *LeftOutError when the version's ladder left it out, an
// *UnfittableError when the ladder could not fit it.
func (s *Serving) Method(train []int, name string) (baseline.Forecaster, error) {
	if s.Model != nil && LeftOut(s.Model.Config, s.Model.Entities, baseline.Kind(name)) {
		n := s.Model.Entities
		rule, _ := LadderFor(s.Model.Config, n)
		return nil, &LeftOutError{Method: name, Ladder: rule, Entities: n}
	}
	fs, skipped, err := s.Ladder(s.Data, train)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if f.Name() == name {
			return f, nil
		}
	}
	if skipped == nil { // read from the version's fits: fit again for the reasons
		if _, skipped, err = Methods(s.Model, s.Data, train, max(1, s.Model.Config.Season)); err != nil {
			return nil, err
		}
	}
	return nil, &UnfittableError{Method: name, Skipped: skipped}
}

// Floors are the lowest value each entity's interval may reach in the
// units value maps to: 0 for an entity none of whose values was negative
// there, -Inf for the others and for a version without data. With
// entity >= 0 only that entity's floor is computed (the others are 0).
func (s *Serving) Floors(value Invert, entity int) []float64 {
	floor := make([]float64, s.Model.Entities)
	m, ok := s.Data, s.HasData
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
