package baseline

import (
	"math"

	"github.com/mallard/mallard/mlops/series"
)

// Theta is the standard Theta method of Assimakopoulos & Nikolopoulos
// (2000) in the form Hyndman & Billah (2003) showed it to be, simple
// exponential smoothing with a drift of half the slope of a linear trend,
// fitted as R's forecast::thetaf fits it (see fitTheta). Per entity, with
// the seasonally adjusted value d(t) = y(t) / s(t) where the entity's
// season is multiplicative and d(t) = y(t) - s(t) where it is additive
// (s is 0 for an entity without a season), the level l starts at Level0
// and runs over rows 0..origin-1 as
//
//	l = l + Alpha*(d(t) - l)
//
// and the forecast of row origin+k, with n = origin rows seen, is
//
//	f = l + Drift*(k + (1 - (1-Alpha)^n)/Alpha)
//
// times s(origin+k) where multiplicative, plus s(origin+k) where not: the
// forecast thetaf makes from the origin with the parameters held fixed.
//
// A Theta without Level0 is an artifact of Mallard's first Theta, which
// subtracted additive indices from every entity and started the level at
// row 0's adjusted value, smoothing rows 1..origin-1; it forecasts as it
// did then.
type Theta struct {
	// Season is the number of rows in a season, at least 1.
	Season int
	// Alpha is each entity's smoothing parameter, in [1e-4, 0.9999].
	Alpha []float64
	// Drift is half the least-squares slope of each entity's seasonally
	// adjusted training rows.
	Drift []float64
	// Seasonal holds the seasonal indices, Season x N: row j holds each
	// entity's index for the rows t = j (mod Season): factors averaging 1
	// for an entity in Multiplicative, else terms summing to 0 (all 0 for
	// an entity without a season).
	Seasonal series.Matrix
	// Level0 is each entity's level before row 0, fitted with Alpha.
	Level0 []float64 `json:",omitempty"`
	// Multiplicative says, per entity, that its Seasonal indices are
	// factors; nil means no entity's are.
	Multiplicative []bool `json:",omitempty"`
}

// Name returns "theta".
func (*Theta) Name() string { return string(KindTheta) }

// Predict writes the one-step forecast of row t into dst. Like Forecast
// it smooths rows 0..t-1, so it costs time in proportion to t.
func (th *Theta) Predict(m series.Matrix, t int, dst []float64) {
	th.Forecast(m, t, [][]float64{dst})
}

// Forecast smooths rows 0..origin-1 of m with the fitted parameters,
// without refitting them, and writes into dst the forecasts of rows
// origin..; origin must be at least 1.
func (th *Theta) Forecast(m series.Matrix, origin int, dst [][]float64) {
	checkForecast(m, origin, 1, dst)
	for n, alpha := range th.Alpha {
		l, from := th.start(m, n)
		for t := from; t < origin; t++ {
			l += alpha * (th.adjust(m.Values[t*m.N+n], t, n) - l)
		}
		start := (1 - math.Pow(1-alpha, float64(origin))) / alpha
		for k, row := range dst {
			row[n] = th.reseason(l+th.Drift[n]*(float64(k)+start), origin+k, n)
		}
	}
}

// OneStep writes the one-step forecasts of rows from..m.T-1 into dst,
// smoothing the history once; from must be at least 1.
func (th *Theta) OneStep(m series.Matrix, from int, dst []float64) {
	for n, alpha := range th.Alpha {
		l, first := th.start(m, n)
		for t := first; t < m.T; t++ {
			if t >= from {
				start := (1 - math.Pow(1-alpha, float64(t))) / alpha
				dst[(t-from)*m.N+n] = th.reseason(l+th.Drift[n]*start, t, n)
			}
			l += alpha * (th.adjust(m.Values[t*m.N+n], t, n) - l)
		}
	}
}

// start returns entity n's level before row from, the first row the level
// smooths: Level0 before row 0, or for a first-version artifact row 0's
// adjusted value before row 1.
func (th *Theta) start(m series.Matrix, n int) (level float64, from int) {
	if th.Level0 == nil {
		return th.adjust(m.Values[n], 0, n), 1
	}
	return th.Level0[n], 0
}

// adjust returns the value v of entity n at row t seasonally adjusted.
func (th *Theta) adjust(v float64, t, n int) float64 {
	s := th.Seasonal.Values[t%th.Season*th.Seasonal.N+n]
	if th.multiplicative(n) {
		return v / s
	}
	return v - s
}

// reseason returns the adjusted forecast f of entity n at row t with the
// season put back.
func (th *Theta) reseason(f float64, t, n int) float64 {
	s := th.Seasonal.Values[t%th.Season*th.Seasonal.N+n]
	if th.multiplicative(n) {
		return f * s
	}
	return f + s
}

func (th *Theta) multiplicative(n int) bool {
	return th.Multiplicative != nil && th.Multiplicative[n]
}
