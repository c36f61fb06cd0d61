package baseline

import (
	"fmt"
	"math"

	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/optimize"
)

// etsEvaluations caps the evaluations of the in-sample error when fitting
// one entity's ETS parameters.
const etsEvaluations = 1500

// fitETS fits an ETS model with the given season, per entity, on rows
// 0..rows-1 of m.
//
// The initial states come from the first two blocks of L = max(season, 2)
// rows, with means a1 and a2: the trend is (a2-a1)/L, the level before
// row 0 is a1 - trend*(L+1)/2, so that the line through both means passes
// through row j at level + trend*(j+1), and the seasonal index of
// position j is the mean of the two rows' deviations from that line,
// shifted to sum to zero. On a noiseless linear trend plus a fixed
// additive season these states are exact.
//
// The parameters minimise the sum of squared one-step errors over the
// training rows, found by Nelder-Mead in unconstrained coordinates u
// mapped into the admissible ranges by the logistic function sigma:
// alpha = f(u0), beta = alpha*f(u1), phi = 0.8 + 0.18*sigma(u2) and
// gamma = (1-alpha)*f(u3), where f = 1e-4 + 0.9998*sigma keeps each
// fraction of its range in [1e-4, 0.9999] as R's forecast::ets does. The
// search starts near alpha 0.5, beta 0.05, gamma 0.05 and phi 0.9.
//
// fitETS returns an error wrapping ErrTooShort if rows < 2L, and one
// wrapping ErrNonFinite if the training rows hold NaN or infinite values.
func fitETS(m series.Matrix, rows, season int) (*ETS, error) {
	block := max(season, 2)
	if rows < 2*block {
		return nil, fmt.Errorf("%w: ets with season %d needs %d training rows, got %d", ErrTooShort, season, 2*block, rows)
	}
	if err := checkFinite(m, rows); err != nil {
		return nil, err
	}
	e := &ETS{Season: season, Params: make([]ETSParams, m.N), Init: make([]ETSState, m.N)}
	y := make([]float64, rows)
	for n := range m.N {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		e.Init[n] = etsInit(y, season)
		p, err := fitETSParams(y, e.Init[n])
		if err != nil {
			return nil, fmt.Errorf("fit ets of entity %d: %w", n, err)
		}
		e.Params[n] = p
	}
	return e, nil
}

// etsInit returns the initial states of the values y for the season, as
// fitETS documents; y holds at least 2*max(season, 2) values.
func etsInit(y []float64, season int) ETSState {
	block := max(season, 2)
	a1, a2 := mean(y[:block]), mean(y[block:2*block])
	trend := (a2 - a1) / float64(block)
	level := a1 - trend*float64(block+1)/2
	s := make([]float64, season)
	if season > 1 {
		for j := range s {
			line := level + trend*float64(j+1)
			s[j] = (y[j] - line + y[season+j] - line - trend*float64(season)) / 2
		}
		c := mean(s)
		for j := range s {
			s[j] -= c
		}
	}
	return ETSState{Level: level, Trend: trend, Seasonal: s}
}

// fitETSParams returns the parameters minimising the one-step squared
// error of the values y filtered from the states init.
func fitETSParams(y []float64, init ETSState) (ETSParams, error) {
	seasonal := len(init.Seasonal) > 1
	st := ETSState{Seasonal: make([]float64, len(init.Seasonal))}
	sse := func(u []float64) float64 {
		st.Level, st.Trend = init.Level, init.Trend
		copy(st.Seasonal, init.Seasonal)
		return etsParams(u, seasonal).filter(&st, y)
	}
	u := []float64{0, logit(0.1), logit(0.1 / 0.18), logit(0.1)}
	if !seasonal {
		u = u[:3]
	}
	settings := &optimize.Settings{
		FuncEvaluations: etsEvaluations,
		Converger:       &optimize.FunctionConverge{Absolute: 1e-14, Relative: 1e-10, Iterations: 200},
	}
	res, err := optimize.Minimize(optimize.Problem{Func: sse}, u, settings, &optimize.NelderMead{SimplexSize: 1})
	if err != nil {
		return ETSParams{}, err
	}
	return etsParams(res.X, seasonal), nil
}

// etsParams maps unconstrained coordinates to admissible parameters: u[0]
// to alpha, u[1] to beta, u[2] to phi and, when seasonal, u[3] to gamma.
// The fractions of the ranges stay in [1e-4, 0.9999], as in R's
// forecast::ets, so the inequalities hold strictly even where the
// logistic function rounds to 0 or 1.
func etsParams(u []float64, seasonal bool) ETSParams {
	p := ETSParams{Alpha: fraction(u[0])}
	p.Beta = p.Alpha * fraction(u[1])
	p.Phi = 0.8 + 0.18*sigmoid(u[2])
	if seasonal {
		p.Gamma = (1 - p.Alpha) * fraction(u[3])
	}
	return p
}

// fraction maps the reals onto [1e-4, 0.9999].
func fraction(x float64) float64 { return 1e-4 + (0.9999-1e-4)*sigmoid(x) }

// sigmoid is the logistic function, mapping the reals onto (0, 1) before
// rounding.
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logit is the inverse of sigmoid.
func logit(p float64) float64 { return math.Log(p / (1 - p)) }

// mean returns the mean of x, which is not empty.
func mean(x []float64) float64 {
	var sum float64
	for _, v := range x {
		sum += v
	}
	return sum / float64(len(x))
}
