package baseline

import (
	"fmt"
	"slices"

	"github.com/mallard/mallard/mlops/series"
)

// State is a fitted forecaster's state at an origin, entity by entity:
// what its forecasts from that origin follow from without any row before
// it. ets keeps each entity's level, trend and seasonal indices; theta its
// smoothed level; arima the mean of its ARMA filter's state and the last
// rows its differences are undone with. Resume takes it; Forecast and
// ForecastEntity then give exactly what the forecaster's own Forecast
// gives from the origin, in time proportional to the steps alone.
type State struct {
	Kind   Kind `json:"kind"`
	Origin int  `json:"origin"`
	// Exactly one of the following is set, that of Kind.
	ETS   *ETSFinal   `json:"ets,omitempty"`
	Theta *ThetaFinal `json:"theta,omitempty"`
	ARIMA *ARIMAFinal `json:"arima,omitempty"`
}

// ETSFinal is ets's state: each entity's form, parameters and states.
type ETSFinal struct {
	Season int         `json:"season"`
	Forms  []string    `json:"forms"`
	Params []ETSParams `json:"params"`
	States []ETSState  `json:"states"`
}

// ThetaFinal is theta's state: the fitted parameters and each entity's
// level after the rows before the origin.
type ThetaFinal struct {
	Fit   *Theta    `json:"fit"`
	Level []float64 `json:"level"`
}

// ARIMAFinal is arima's state: each entity's model, the mean of its ARMA
// filter's state (empty where the differences need more rows than the
// origin leaves, so that the entity is forecast by its last value), and
// its last rows: as many as its differences reach back, or the last one.
type ARIMAFinal struct {
	Models []ARIMAModel `json:"models"`
	Filter [][]float64  `json:"filter"`
	Tail   [][]float64  `json:"tail"`
	// White marks, when not nil, the entities whose filter is that of
	// white noise (parameters without a stationary start).
	White []bool `json:"white,omitempty"`
}

// Resume returns f's state after rows 0..origin-1 of m, and false for a
// forecaster that keeps none (those that read only the last rows before
// the origin: they need no state beyond those rows). It panics as
// f.Forecast does on an origin out of range.
func Resume(f Forecaster, m series.Matrix, origin int) (*State, bool) {
	s := &State{Kind: Kind(f.Name()), Origin: origin}
	switch f := f.(type) {
	case *ETS:
		checkForecast(m, origin, 0, nil)
		s.ETS = f.resume(m, origin)
	case *Theta:
		checkForecast(m, origin, 1, nil)
		s.Theta = f.resume(m, origin)
	case *ARIMA:
		checkForecast(m, origin, 1, nil)
		s.ARIMA = f.resume(m, origin)
	default:
		return nil, false
	}
	return s, true
}

// Entities is the number of entities the state forecasts.
func (s *State) Entities() int {
	switch {
	case s.ETS != nil:
		return len(s.ETS.Params)
	case s.Theta != nil:
		return len(s.Theta.Level)
	case s.ARIMA != nil:
		return len(s.ARIMA.Models)
	}
	return 0
}

// Validate returns an error unless the state is one of a kind with every
// entity's parts, as a decoded state must be before it forecasts.
func (s *State) Validate() error {
	n := s.Entities()
	ok := false
	switch {
	case s.ETS != nil:
		e := s.ETS
		ok = e.Season >= 1 && len(e.Forms) == n && len(e.States) == n
		for i := 0; ok && i < n; i++ {
			_, err := parseETSForm(e.Forms[i])
			ok = err == nil && len(e.States[i].Seasonal) == e.Season
		}
	case s.Theta != nil:
		t := s.Theta.Fit
		ok = t != nil && t.Season >= 1 && len(t.Alpha) == n && len(t.Drift) == n && t.Seasonal.N == n && len(t.Seasonal.Values) >= t.Season*n
	case s.ARIMA != nil:
		a := s.ARIMA
		ok = len(a.Filter) == n && len(a.Tail) == n && (a.White == nil || len(a.White) == n)
		for i := 0; ok && i < n; i++ {
			ok = len(a.Filter[i]) > 0 || len(a.Tail[i]) > 0
		}
	}
	if !ok || s.Origin < 0 {
		return fmt.Errorf("baseline: %s state at origin %d is malformed", s.Kind, s.Origin)
	}
	return nil
}

// Forecast writes into dst[k], which must hold Entities() values, every
// entity's forecast of row Origin+k.
func (s *State) Forecast(dst [][]float64) {
	out := make([]float64, len(dst))
	for i := range s.Entities() {
		s.ForecastEntity(i, out)
		for k, row := range dst {
			row[i] = out[k]
		}
	}
}

// ForecastEntity writes into dst[k] entity i's forecast of row Origin+k.
func (s *State) ForecastEntity(i int, dst []float64) {
	switch {
	case s.ETS != nil:
		s.ETS.forecast(i, s.Origin, dst)
	case s.Theta != nil:
		s.Theta.forecast(i, s.Origin, dst)
	case s.ARIMA != nil:
		s.ARIMA.forecast(i, dst)
	}
}

// resume filters each entity's rows before origin as Forecast does.
func (e *ETS) resume(m series.Matrix, origin int) *ETSFinal {
	out := &ETSFinal{Season: e.Season, Params: slices.Clone(e.Params), Forms: make([]string, len(e.Params)),
		States: make([]ETSState, len(e.Params))}
	y := make([]float64, origin)
	for n, p := range e.Params {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		f := e.form(n)
		st := e.Init[n]
		st.Seasonal = make([]float64, e.Season)
		copy(st.Seasonal, e.Init[n].Seasonal)
		f.filter(p, &st, y, nil)
		out.Forms[n], out.States[n] = f.String(), st
	}
	return out
}

// forecast projects entity n's states as ETS.Forecast does.
func (e *ETSFinal) forecast(n, origin int, dst []float64) {
	f, err := parseETSForm(e.Forms[n])
	if err != nil {
		panic(err)
	}
	p, st := e.Params[n], e.States[n]
	damp, sum := 1.0, 0.0
	for k := range dst {
		damp *= p.Phi
		sum += damp
		dst[k] = f.combine(st.Level+sum*st.Trend, st.Seasonal, (origin+k)%e.Season)
	}
}
