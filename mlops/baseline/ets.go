package baseline

import (
	"fmt"
	"math"
	"strings"

	"github.com/mallard/mallard/mlops/series"
)

// ETS is exponential smoothing in the innovations state space form of
// Hyndman, Koehler, Ord & Snyder, Forecasting with Exponential Smoothing
// (2008), chosen per entity as R's forecast::ets chooses it (see fitETS).
// Each entity has its own form, parameters and initial states. A form
// names the error (A additive, M multiplicative), the trend (N none, A
// additive, Ad additive damped) and the season (N, A, M) as R does, for
// example "A,Ad,A" for ETS(A,Ad,A).
//
// With m = Season, the level l, the trend b and the seasonal indices s run
// over each row t, whose index is s[t mod m], as
//
//	q    = l + phi*b                      (l when the trend is N)
//	yhat = q, q + s[t mod m] or q*s[t mod m]  (season N, A or M)
//	a    = y(t), y(t) - s[t mod m] or y(t)/s[t mod m]
//	l    = q + alpha*(a - q)
//	b    = phi*b + beta*(a - q)
//	s[t mod m] += gamma*(y(t) - q - s) or gamma*(y(t)/q - s)
//
// and the forecast h = k+1 rows past the last row filtered is
// l + (phi + ... + phi^h)*b combined with s[(origin+k) mod m], the
// latest index of that row's phase, as the season combines. That is R's
// state space point forecast (forecast.ets with simulate = TRUE); for the
// forms with a multiplicative season R's default forecast.ets adds a
// variance term past one season and, when damped, starts the damping a
// step later. The error form does not change the states or the forecasts,
// only the likelihood the fit maximises. Beta is the state space smoothing
// parameter, alpha times the beta* of the component form; phi is 1 for
// an undamped trend.
type ETS struct {
	// Season is the number of rows in a season, at least 1.
	Season int
	// Params are each entity's smoothing parameters.
	Params []ETSParams
	// Init are each entity's states before row 0.
	Init []ETSState
	// Forms are each entity's form, as "A,Ad,A". Artifacts written before
	// forms were chosen have none: each entity is then ETS(A,Ad,A), or
	// ETS(A,Ad,N) when Season is 1.
	Forms []string `json:",omitempty"`
	// AICc are each entity's corrected Akaike information criterion at the
	// fit, the criterion the form was chosen by, with R's likelihood (its
	// constant terms left out). Empty for artifacts written before forms.
	AICc []float64 `json:",omitempty"`
}

// ETSParams are an entity's smoothing parameters. Fitted ones satisfy
// 1e-4 <= Alpha <= 0.9999, 1e-4 <= Beta <= Alpha, 1e-4 <= Gamma <= 1-Alpha
// and 0.8 <= Phi <= 0.98, the ranges of R's forecast::ets; Beta is 0
// without a trend, Gamma is 0 without a season and Phi is 1 without
// damping.
type ETSParams struct {
	Alpha, Beta, Gamma, Phi float64
}

// ETSState is an entity's level, trend and seasonal indices.
type ETSState struct {
	Level, Trend float64
	// Seasonal holds Season indices: Seasonal[j] is the index of the next
	// row whose position in the season is j. Forms without a season
	// ignore it.
	Seasonal []float64
}

// etsForm is a parsed form.
type etsForm struct {
	multError bool // the error is multiplicative
	trend     bool // there is a trend
	damped    bool // the trend is damped
	season    byte // 'N', 'A' or 'M'
}

// etsForms are the forms fitETS considers, in the order R's ets tries
// them: error A then M, trend N then A, season N, A, M, damped before
// undamped.
var etsForms = []etsForm{
	{false, false, false, 'N'}, {false, false, false, 'A'}, {false, false, false, 'M'},
	{false, true, true, 'N'}, {false, true, false, 'N'}, {false, true, true, 'A'},
	{false, true, false, 'A'}, {false, true, true, 'M'}, {false, true, false, 'M'},
	{true, false, false, 'N'}, {true, false, false, 'A'}, {true, false, false, 'M'},
	{true, true, true, 'N'}, {true, true, false, 'N'}, {true, true, true, 'A'},
	{true, true, false, 'A'}, {true, true, true, 'M'}, {true, true, false, 'M'},
}

// String names the form as R does, "A,Ad,M".
func (f etsForm) String() string {
	e, t := "A", "N"
	if f.multError {
		e = "M"
	}
	if f.trend {
		t = "A"
		if f.damped {
			t = "Ad"
		}
	}
	return e + "," + t + "," + string(f.season)
}

// parseETSForm parses a form named as String names it.
func parseETSForm(s string) (etsForm, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return etsForm{}, fmt.Errorf("baseline: ets form %q is not error,trend,season", s)
	}
	var f etsForm
	switch parts[0] {
	case "A":
	case "M":
		f.multError = true
	default:
		return etsForm{}, fmt.Errorf("baseline: ets form %q: error %q is not A or M", s, parts[0])
	}
	switch parts[1] {
	case "N":
	case "A":
		f.trend = true
	case "Ad":
		f.trend, f.damped = true, true
	default:
		return etsForm{}, fmt.Errorf("baseline: ets form %q: trend %q is not N, A or Ad", s, parts[1])
	}
	if len(parts[2]) != 1 || !strings.Contains("NAM", parts[2]) {
		return etsForm{}, fmt.Errorf("baseline: ets form %q: season %q is not N, A or M", s, parts[2])
	}
	f.season = parts[2][0]
	return f, nil
}

// form returns entity n's form; it panics on a malformed one.
func (e *ETS) form(n int) etsForm {
	if len(e.Forms) == 0 {
		season := byte('A')
		if e.Season <= 1 {
			season = 'N'
		}
		return etsForm{trend: true, damped: true, season: season}
	}
	f, err := parseETSForm(e.Forms[n])
	if err != nil {
		panic(err)
	}
	return f
}

// Name returns "ets".
func (*ETS) Name() string { return string(KindETS) }

// Predict writes the one-step forecast of row t into dst. Like Forecast
// it filters rows 0..t-1, so it costs time in proportion to t.
func (e *ETS) Predict(m series.Matrix, t int, dst []float64) {
	e.Forecast(m, t, [][]float64{dst})
}

// Forecast filters rows 0..origin-1 of m from the initial states with the
// fitted parameters, without refitting them, and writes into dst the
// forecasts of rows origin.. from the states reached. origin may be 0, to
// forecast from the initial states.
func (e *ETS) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 0, dst)
	y := make([]float64, origin)
	s := make([]float64, e.Season)
	for n, p := range e.Params {
		for t := range y {
			y[t] = m.Values[t*m.N+n]
		}
		f := e.form(n)
		st := e.Init[n]
		st.Seasonal = s
		copy(s, e.Init[n].Seasonal)
		f.filter(p, &st, y, nil)
		damp, sum := 1.0, 0.0
		for k, row := range dst {
			damp *= p.Phi
			sum += damp
			row[n] = f.combine(st.Level+sum*st.Trend, s, (origin+k)%e.Season)
		}
	}
}

// combine returns the forecast q of the level and trend combined with the
// seasonal index s[j] as the form's season combines them.
func (f etsForm) combine(q float64, s []float64, j int) float64 {
	switch f.season {
	case 'A':
		return q + s[j]
	case 'M':
		return q * s[j]
	}
	return q
}

// filter runs the state equations over the values y of one entity, the
// first of them at a row whose position in the season is 0, updating st
// in place. When onestep is not nil it receives the one-step forecast of
// each value. It returns the sum of the squared one-step errors, relative
// to the forecast when the error is multiplicative, and then also the sum
// of the logarithms of the forecasts' magnitudes (0 otherwise): what the
// likelihood is made of.
func (f etsForm) filter(p ETSParams, st *ETSState, y []float64, onestep []float64) (sse, logs float64) {
	if onestep == nil && !f.multError && f.season != 'M' {
		return f.additive(p, st, y), 0
	}
	season := max(1, len(st.Seasonal))
	l, b := st.Level, st.Trend
	// The logarithms are summed as that of a product, kept as a mantissa
	// and a power of 2: one logarithm, not one a row.
	mant, exp := 1.0, 0
	for t, v := range y {
		j := t % season
		q := l
		if f.trend {
			q += p.Phi * b
		}
		yhat, a := q, v
		switch f.season {
		case 'A':
			yhat, a = q+st.Seasonal[j], v-st.Seasonal[j]
		case 'M':
			yhat, a = q*st.Seasonal[j], ratio(v, st.Seasonal[j])
		}
		if onestep != nil {
			onestep[t] = yhat
		}
		e := v - yhat
		if f.multError {
			e /= yhat
			frac, k := math.Frexp(mant * yhat)
			mant, exp = frac, exp+k
		}
		sse += e * e
		l = q + p.Alpha*(a-q)
		if f.trend {
			b = p.Phi*b + p.Beta*(a-q)
		}
		switch f.season {
		case 'A':
			st.Seasonal[j] += p.Gamma * (v - q - st.Seasonal[j])
		case 'M':
			st.Seasonal[j] += p.Gamma * (ratio(v, q) - st.Seasonal[j])
		}
	}
	st.Level, st.Trend = l, b
	if f.multError {
		logs = math.Log(math.Abs(mant)) + float64(exp)*math.Ln2
	}
	return sse, logs
}

// additive is filter for the additive forms, without one-step forecasts:
// the likelihood's inner loop, kept free of the other forms' branches,
// with filter's arithmetic in filter's order.
func (f etsForm) additive(p ETSParams, st *ETSState, y []float64) (sse float64) {
	l, b := st.Level, st.Trend
	phi, beta := p.Phi, p.Beta
	if !f.trend {
		phi, beta = 0, 0
	}
	if f.season == 'N' {
		for _, v := range y {
			q := l + phi*b
			e := v - q
			sse += e * e
			l = q + p.Alpha*e
			b = phi*b + beta*e
		}
		st.Level, st.Trend = l, b
		return sse
	}
	s := st.Seasonal
	j := 0
	for _, v := range y {
		q := l + phi*b
		e := v - (q + s[j])
		sse += e * e
		a := v - s[j] - q
		l = q + p.Alpha*a
		b = phi*b + beta*a
		s[j] += p.Gamma * (v - q - s[j])
		if j++; j == len(s) {
			j = 0
		}
	}
	st.Level, st.Trend = l, b
	return sse
}

// ratio is x/y, or 1e10 where |y| < 1e-10, as R's ets guards its
// multiplicative updates.
func ratio(x, y float64) float64 {
	if y < 1e-10 && y > -1e-10 {
		return 1e10
	}
	return x / y
}
