package baseline

import (
	"fmt"
	"math"
	"slices"

	"github.com/mallard/mallard/mlops/series"
)

// The search of one form's parameters and initial states: R's ets runs
// Nelder-Mead for at most 2000 values with the relative tolerance
// sqrt(machine epsilon).
const (
	etsEvaluations = 2000
	etsTolerance   = 1.4901161193847656e-08
)

// etsMaxSeason is the longest season R's ets fits seasonal forms for.
const etsMaxSeason = 24

// fitETS fits ETS per entity on rows 0..rows-1 of m as R's
// forecast::ets(y) chooses and fits a model with its defaults (model
// "ZZZ", bounds "both", restrict, no multiplicative trend, AICc): every
// admissible form among error A/M, trend N/A/Ad and season N/A/M is
// fitted by maximum likelihood, its smoothing parameters and initial
// states together, and the one with the lowest AICc is kept (the first
// in R's order on a tie).
//
// Forms with a multiplicative error or season need an entity whose
// training values are all positive, and a multiplicative season goes
// with a multiplicative error only. The matrices the anchor and the
// ladder see are usually z-normalised, so in practice an entity gets the
// additive forms ETS(A,N,N), (A,A,N), (A,Ad,N), (A,N,A), (A,A,A) and
// (A,Ad,A). Seasonal forms need season 2..24 (R's ets ignores a longer
// season, and so does fitETS: it fits the non-seasonal forms) and at
// least three seasons of rows, which Options.Validate ensures. A form
// with as many parameters and initial states as rows less one is not
// fitted. A constant entity gets ETS(A,N,N) at its value, as in R.
//
// A form is chosen only with a finite AICc, which needs more rows than
// its parameters and initial states plus 2 (as R's best.ic); with 5 rows
// ETS(A,N,N) qualifies. fitETS returns an error wrapping ErrTooShort if
// rows < 5, and one wrapping ErrNonFinite if the training rows hold NaN
// or infinite values.
func fitETS(m series.Matrix, rows, season int) (*ETS, error) {
	return fitETSForms(m, rows, season, nil)
}

// FitETSForms is FitForecaster's ets, each entity's search limited to
// the form forms[n] as fitETSForms describes: how a fit on more rows may
// keep the forms a fit on fewer chose.
func FitETSForms(m series.Matrix, train []int, opt Options, forms []string) (*ETS, error) {
	if err := checkTraining(m, opt.Window, train); err != nil {
		return nil, err
	}
	rows := slices.Max(train) + 1
	if err := opt.Validate(rows); err != nil {
		return nil, err
	}
	return fitETSForms(m, rows, opt.Season, forms)
}

// fitETSForms is fitETS with each entity's search limited to forms[n]
// (as ETS.Forms names them) where forms is not nil and that form is among
// the candidates the entity's values allow; otherwise, or with forms[n]
// empty, the entity searches every candidate. Re-estimating a form chosen
// on fewer rows is how R refits a given model (ets(y, model = fit)
// re-estimates its parameters), at a fraction of the search's cost.
func fitETSForms(m series.Matrix, rows, season int, forms []string) (*ETS, error) {
	if rows < 5 {
		return nil, fmt.Errorf("%w: ets needs 5 training rows, got %d", ErrTooShort, rows)
	}
	if err := checkFinite(m, rows); err != nil {
		return nil, err
	}
	e := &ETS{Season: season, Params: make([]ETSParams, m.N), Init: make([]ETSState, m.N),
		Forms: make([]string, m.N), AICc: make([]float64, m.N)}
	best := make([]etsFit, m.N)
	have := make([]bool, m.N)
	var jobs []*etsJob
	for n := range m.N {
		y := make([]float64, rows)
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		if constant(y) {
			best[n], have[n] = constantETS(y), true
			continue
		}
		for _, f := range keptForm(etsCandidates(y, season), forms, n) {
			jobs = append(jobs, &etsJob{entity: n, t: newETSTarget(y, f, season)})
		}
	}
	runETSJobs(jobs)
	for _, j := range jobs {
		n := j.entity
		if j.ok && !math.IsInf(j.fit.aicc, 0) && (!have[n] || j.fit.aicc < best[n].aicc) {
			best[n], have[n] = j.fit, true
		}
	}
	for n, fit := range best {
		if !have[n] {
			return nil, fmt.Errorf("fit ets of entity %d: no form could be fitted", n)
		}
		e.Params[n], e.Init[n], e.Forms[n], e.AICc[n] = fit.params, fit.init, fit.form.String(), fit.aicc
	}
	return e, nil
}

// keptForm is the candidate named forms[n], alone, when there is one;
// else every candidate.
func keptForm(candidates []etsForm, forms []string, n int) []etsForm {
	if n >= len(forms) || forms[n] == "" {
		return candidates
	}
	for _, f := range candidates {
		if f.String() == forms[n] {
			return []etsForm{f}
		}
	}
	return candidates
}

// etsFit is one form fitted to one series.
type etsFit struct {
	form   etsForm
	params ETSParams
	init   ETSState
	lik    float64 // R's -2 log-likelihood less its constants
	aicc   float64
}

// constantETS is the fit of a constant series: ETS(A,N,N) at its value,
// as R's ets fits one.
func constantETS(y []float64) etsFit {
	t := &etsTarget{form: etsForm{season: 'N'}, m: 1, y: y}
	return t.result([]float64{0.9999, y[0]})
}

// etsCandidates returns the forms the values y allow, in R's order:
// multiplicative error or season only when every value is positive, a
// multiplicative season only with a multiplicative error, and seasonal
// forms only for a season of 2..24 with three seasons of rows.
func etsCandidates(y []float64, season int) []etsForm {
	positive := true
	for _, v := range y {
		positive = positive && v > 0
	}
	seasonal := season > 1 && season <= etsMaxSeason && len(y) >= 3*season
	var forms []etsForm
	for _, f := range etsForms {
		if (f.season != 'N' && !seasonal) || (f.multError && !positive) || (f.season == 'M' && !f.multError) {
			continue
		}
		forms = append(forms, f)
	}
	return forms
}

// constant reports whether every value of y equals the first.
func constant(y []float64) bool {
	for _, v := range y {
		if v != y[0] {
			return false
		}
	}
	return true
}

// newETSTarget returns the likelihood of the form f over y, with the
// season it takes.
func newETSTarget(y []float64, f etsForm, season int) *etsTarget {
	m := 1
	if f.season != 'N' {
		m = season
	}
	return &etsTarget{form: f, m: m, y: y}
}

// fitETSForm fits t's form by maximum likelihood from R's starting values,
// lik computing t.lik (hint, if not nil, is nelderMead's); ok is false
// when the form has too many parameters for the series or its starting
// point is not admissible.
func fitETSForm(t *etsTarget, lik func([]float64) float64, hint func(exp, out, in []float64)) (etsFit, bool) {
	x0 := t.start()
	if len(x0) >= len(t.y)-1 {
		return etsFit{}, false
	}
	x, _, ok := nelderMead(lik, hint, x0, etsTolerance, etsEvaluations)
	if !ok {
		return etsFit{}, false
	}
	fit := t.result(x)
	return fit, !math.IsInf(fit.lik, 0) && !math.IsNaN(fit.lik)
}

// etsTarget is the likelihood of one form over one series, as a function
// of the vector R's ets searches: alpha, beta, gamma and phi where the
// form has them, then the level and trend before the first row and the
// seasonal indices s0..s(m-2) of the m-1 rows before it, s0 the latest.
// The index of the row m before the first is implied: the indices sum to
// 0 (additive) or m (multiplicative).
type etsTarget struct {
	form etsForm
	m    int // the season, 1 without a seasonal component
	y    []float64
	s    []float64 // scratch seasonal indices, by position
}

// nparams returns the number of smoothing parameters the form has.
func (t *etsTarget) nparams() int {
	n := 1
	if t.form.trend {
		n++
	}
	if t.form.season != 'N' {
		n++
	}
	if t.form.damped {
		n++
	}
	return n
}

// unpack returns the parameters and the initial states x holds; the
// seasonal indices go to t.s, by position.
func (t *etsTarget) unpack(x []float64) (ETSParams, ETSState) {
	p := ETSParams{Alpha: x[0], Phi: 1}
	i := 1
	if t.form.trend {
		p.Beta, i = x[i], i+1
	}
	if t.form.season != 'N' {
		p.Gamma, i = x[i], i+1
	}
	if t.form.damped {
		p.Phi, i = x[i], i+1
	}
	st := ETSState{Level: x[i]}
	i++
	if t.form.trend {
		st.Trend, i = x[i], i+1
	}
	if t.form.season == 'N' {
		return p, st
	}
	if len(t.s) != t.m {
		t.s = make([]float64, t.m)
	}
	implied := 0.0
	if t.form.season == 'M' {
		implied = float64(t.m)
	}
	for k := 1; k < t.m; k++ {
		t.s[k] = x[i+t.m-1-k]
		implied -= t.s[k]
	}
	t.s[0] = implied
	st.Seasonal = t.s
	return p, st
}

// lik returns R's -2 log-likelihood less its constants at x,
// n*log(sum of squared errors) plus, for a multiplicative error,
// 2*sum(log|forecast|); +Inf outside the usual bounds, outside the
// admissible region or with a negative multiplicative index, and at least
// -1e10, as R bounds it.
func (t *etsTarget) lik(x []float64) float64 {
	p, st, ok := t.prepare(x)
	if !ok {
		return math.Inf(1)
	}
	return t.finish(t.form.filter(p, &st, t.y, nil))
}

// prepare returns the parameters and initial states at x, and whether
// they lie within the usual bounds and the admissible region with no
// negative multiplicative index.
func (t *etsTarget) prepare(x []float64) (ETSParams, ETSState, bool) {
	p, st := t.unpack(x)
	if !t.form.usual(p) || !t.form.admissible(p, t.m) {
		return p, st, false
	}
	if t.form.season == 'M' {
		for _, v := range st.Seasonal {
			if v < 0 {
				return p, st, false
			}
		}
	}
	return p, st, true
}

// finish returns the likelihood of the sums filter returns.
func (t *etsTarget) finish(sse, logs float64) float64 {
	lik := float64(len(t.y)) * math.Log(sse)
	if t.form.multError {
		lik += 2 * logs
	}
	if math.IsNaN(lik) {
		return math.Inf(1)
	}
	return max(lik, -1e10)
}

// result returns the fit at x: its parameters, initial states (the
// seasonal indices copied out of t.s), likelihood and AICc, counting the
// parameters, the initial states and the variance as R does.
func (t *etsTarget) result(x []float64) etsFit {
	lik := t.lik(x)
	p, st := t.unpack(x)
	if st.Seasonal != nil {
		st.Seasonal = append([]float64(nil), st.Seasonal...)
	}
	np := float64(len(x) + 1)
	n := float64(len(t.y))
	return etsFit{form: t.form, params: p, init: st, lik: lik, aicc: lik + 2*np + 2*np*(np+1)/(n-np-1)}
}

// start returns R's starting point for the form: alpha 0.2/m of the way
// up its range, beta a tenth of the way to alpha, gamma a twentieth of
// the way to 1 - alpha, phi 0.99 of the way up its range, and the
// initial states of etsInitStates.
func (t *etsTarget) start() []float64 {
	alpha := etsLower + 0.2*(etsUpper-etsLower)/float64(t.m)
	x := []float64{alpha}
	if t.form.trend {
		x = append(x, etsLower+0.1*(min(etsUpper, alpha)-etsLower))
	}
	if t.form.season != 'N' {
		x = append(x, etsLower+0.05*(min(etsUpper, 1-alpha)-etsLower))
	}
	if t.form.damped {
		x = append(x, etsPhiLower+0.99*(etsPhiUpper-etsPhiLower))
	}
	return append(x, etsInitStates(t.y, t.form, t.m)...)
}

// mean returns the mean of x, which is not empty.
func mean(x []float64) float64 {
	var sum float64
	for _, v := range x {
		sum += v
	}
	return sum / float64(len(x))
}
