package baseline

import (
	"cmp"
	"math"
	"slices"
)

// The limits of the search of AutoARIMA, R's forecast::auto.arima
// defaults.
const (
	arimaMaxP    = 5
	arimaMaxQ    = 5
	arimaMaxSP   = 2
	arimaMaxSQ   = 2
	arimaMaxD    = 2
	arimaModels  = 94
	seasonStrong = 0.64
)

// AutoARIMA chooses and fits an ARIMA model for the values y, a season
// of period rows (1 for none), as Hyndman and Khandakar (2008) and R's
// forecast::auto.arima do with their defaults:
//
//   - D, at most 1, is 1 when period > 1, y holds more than two seasons
//     and the seasonal strength of its STL decomposition exceeds 0.64
//     (SeasonalStrength);
//   - d, at most 2, is the number of differences after which the KPSS
//     test (KPSS) no longer rejects stationarity at the 5% level;
//   - a constant (the mean, or the drift) is allowed when d+D <= 1;
//   - the orders p, q <= 5 (q, p < period with a seasonal part) and
//     P, Q <= 2 are searched stepwise from (2,d,2)(1,D,1), (0,d,0)(0,D,0),
//     (1,d,0)(1,D,0) and (0,d,1)(0,D,1), each step changing p, q, P or Q
//     by one or toggling the constant, keeping the model of lowest AICc
//     among those whose autoregression and moving average have every
//     root outside the circle of radius 1.01;
//   - when y holds more than 150 values or the period exceeds 12, the
//     search scores models by the conditional sum of squares, as R's
//     approximation does, and the best is then fitted by exact
//     likelihood (the next best if it cannot be).
//
// R also rejects models whose estimated parameters have a Hessian with
// a negative variance; Mallard takes no Hessian and does not. y must
// hold finite values. Where no candidate can be fitted (too few rows for
// the AICc), the model is ARIMA(0,d,0)(0,D,0) with the mean difference as
// its constant when d+D <= 1. The error is always nil; it is kept for
// callers that may meet one in future.
func AutoARIMA(y []float64, period int) (ARIMAModel, error) {
	m := max(period, 1)
	n := len(y)
	if constantSeries(y) || n < 3 {
		return fixedARIMA(y, m, ARIMAOrder{}, true), nil
	}
	sd := 0
	if m > 1 && n > 2*m && SeasonalStrength(y, m) > seasonStrong {
		sd = 1
	}
	dx := difference(y, 0, sd, m)
	if len(dx) == 0 {
		sd, dx = 0, y
	}
	d := NDiffs(dx)
	w := difference(dx, d, 0, 1)
	if len(w) == 0 {
		d--
		w = difference(dx, d, 0, 1)
	}
	if constantSeries(w) {
		return fixedARIMA(y, m, ARIMAOrder{D: d, SD: sd}, d+sd <= 1), nil
	}
	s := &arimaSearch{y: y, period: m, d: d, sd: sd,
		maxP: min(arimaMaxP, n/3), maxQ: min(arimaMaxQ, n/3),
		maxSP: min(arimaMaxSP, n/3/m), maxSQ: min(arimaMaxSQ, n/3/m),
		approx: n > 150 || m > 12}
	if m == 1 {
		s.maxSP, s.maxSQ = 0, 0
	}
	if m > 1 {
		if s.maxSP > 0 {
			s.maxP = min(s.maxP, m-1)
		}
		if s.maxSQ > 0 {
			s.maxQ = min(s.maxQ, m-1)
		}
	}
	if s.approx {
		s.offset = cssOffset(y, d, sd, m, n)
	}
	return s.run()
}

// cssOffset is the term R's approximation adds to the information
// criterion of a conditional-sum-of-squares fit: -2 log L - n log s2 of
// the white noise model ARIMA(0,d,0)(0,D,0), with a mean when d+D = 0,
// fitted by likelihood, n the length of the series.
func cssOffset(y []float64, d, sd, m, n int) float64 {
	w := difference(y, d, sd, m)
	mu := 0.0
	if d+sd == 0 {
		mu = mean(w)
	}
	var ssq float64
	for _, v := range w {
		ssq += (v - mu) * (v - mu)
	}
	nu := float64(len(w))
	s2 := ssq / nu
	return nu*(math.Log(2*math.Pi*s2)+1) - float64(n)*math.Log(s2)
}

// arimaSearch is the state of AutoARIMA's stepwise search.
type arimaSearch struct {
	y                        []float64
	period, d, sd            int
	maxP, maxQ, maxSP, maxSQ int
	approx                   bool
	offset                   float64
	tried                    []arimaTry
	best                     arimaTry
	// work holds the buffers of the conditional sum of squares, shared
	// by the fits of the search.
	work cssWork
}

// arimaTry is a candidate of the search with its criterion.
type arimaTry struct {
	p, q, sp, sq int
	constant     bool
	ic           float64
	model        ARIMAModel
	// css is the conditional sum of squares' fit that scored the
	// candidate under the approximation, the start of its refit.
	css *cssFit
}

// fit fits a candidate unless it was tried, and makes it the best if its
// criterion is lower; it reports whether it did.
func (s *arimaSearch) fit(p, q, sp, sq int, constant bool) bool {
	for _, t := range s.tried {
		if t.p == p && t.q == q && t.sp == sp && t.sq == sq && t.constant == constant {
			return false
		}
	}
	if len(s.tried) >= arimaModels {
		return false
	}
	t := arimaTry{p: p, q: q, sp: sp, sq: sq, constant: constant, ic: math.Inf(1)}
	order := ARIMAOrder{P: p, D: s.d, Q: q, SP: sp, SD: s.sd, SQ: sq}
	c := newCSSFit(s.y, s.period, order, constant, &s.work)
	var md ARIMAModel
	var err error
	if s.approx {
		md, err = c.cssModel()
		t.css = &c
	} else {
		md, err = c.mlModel()
	}
	if err == nil && acceptable(md) {
		t.model, t.ic = md, md.AICc
		if s.approx {
			t.ic += s.offset
		}
	}
	s.tried = append(s.tried, t)
	if t.ic < s.best.ic {
		s.best = t
		return true
	}
	return false
}

// acceptable reports whether the fitted polynomials have every root
// outside the circle of radius 1.01 and the criterion is finite.
func acceptable(md ARIMAModel) bool {
	phi := expand(md.AR, md.SAR, md.Period, -1)
	theta := expand(md.MA, md.SMA, md.Period, 1)
	return !math.IsInf(md.AICc, 0) && !math.IsNaN(md.AICc) && stationary(phi, 1.01) && invertible(theta, 1.01)
}

// run searches from R's starting models and returns the best, fitted by
// exact likelihood.
func (s *arimaSearch) run() (ARIMAModel, error) {
	constant := s.d+s.sd <= 1
	start := 2
	seasonalStart := 1
	if len(s.y) < 10 {
		start, seasonalStart = 1, 0
	}
	p, q := min(start, s.maxP), min(start, s.maxQ)
	sp, sq := min(seasonalStart, s.maxSP), min(seasonalStart, s.maxSQ)
	s.best = arimaTry{ic: math.Inf(1)}
	s.fit(p, q, sp, sq, constant)
	if s.fit(0, 0, 0, 0, constant) {
		p, q, sp, sq = 0, 0, 0, 0
	}
	if s.maxP > 0 || s.maxSP > 0 {
		ap, asp := b2i(s.maxP > 0), b2i(s.period > 1 && s.maxSP > 0)
		if s.fit(ap, 0, asp, 0, constant) {
			p, q, sp, sq = ap, 0, asp, 0
		}
	}
	if s.maxQ > 0 || s.maxSQ > 0 {
		aq, asq := b2i(s.maxQ > 0), b2i(s.period > 1 && s.maxSQ > 0)
		if s.fit(0, aq, 0, asq, constant) {
			p, q, sp, sq = 0, aq, 0, asq
		}
	}
	if constant && s.fit(0, 0, 0, 0, false) {
		p, q, sp, sq = 0, 0, 0, 0
		constant = false
	}
	for {
		moved := false
		for _, st := range arimaSteps() {
			np, nq, nsp, nsq := p+st[0], q+st[1], sp+st[2], sq+st[3]
			if np < 0 || nq < 0 || nsp < 0 || nsq < 0 || np > s.maxP || nq > s.maxQ || nsp > s.maxSP || nsq > s.maxSQ {
				continue
			}
			if s.fit(np, nq, nsp, nsq, constant) {
				p, q, sp, sq, moved = np, nq, nsp, nsq, true
				break
			}
		}
		if !moved && s.d+s.sd <= 1 && s.fit(p, q, sp, sq, !constant) {
			constant, moved = !constant, true
		}
		if !moved || len(s.tried) >= arimaModels {
			break
		}
	}
	return s.final()
}

// arimaSteps returns the moves of the stepwise search in R's order, as
// changes of (p, q, P, Q).
func arimaSteps() [16][4]int {
	return [16][4]int{
		{0, 0, -1, 0}, {0, 0, 0, -1}, {0, 0, 1, 0}, {0, 0, 0, 1},
		{0, 0, -1, -1}, {0, 0, -1, 1}, {0, 0, 1, -1}, {0, 0, 1, 1},
		{-1, 0, 0, 0}, {0, -1, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
		{-1, -1, 0, 0}, {-1, 1, 0, 0}, {1, -1, 0, 0}, {1, 1, 0, 0},
	}
}

// final returns the best model fitted by exact likelihood: with the
// approximation, the candidates are refitted in order of their criterion
// until one is acceptable. Without any, it falls back to
// ARIMA(0,d,0)(0,D,0), fitted if it can be and with the mean difference
// as its constant otherwise.
func (s *arimaSearch) final() (ARIMAModel, error) {
	if !s.approx && !math.IsInf(s.best.ic, 1) {
		return s.best.model, nil
	}
	if s.approx {
		order := slices.SortedStableFunc(slices.Values(s.tried), func(a, b arimaTry) int { return cmp.Compare(a.ic, b.ic) })
		for _, t := range order {
			if math.IsInf(t.ic, 1) {
				break
			}
			if md, err := t.css.mlModel(); err == nil && acceptable(md) {
				return md, nil
			}
		}
	}
	order := ARIMAOrder{D: s.d, SD: s.sd}
	if md, err := FitARIMA(s.y, s.period, order, s.d+s.sd <= 1); err == nil {
		return md, nil
	}
	return fixedARIMA(s.y, s.period, order, s.d+s.sd <= 1), nil
}

// fixedARIMA is the model of a series whose differences of the order
// given are constant: no autoregression nor moving average, and the
// constant difference as its mean when constant is set.
func fixedARIMA(y []float64, period int, order ARIMAOrder, constant bool) ARIMAModel {
	md := ARIMAModel{Order: order, Period: period, Constant: constant}
	if w := difference(y, order.D, order.SD, period); constant && len(w) > 0 {
		md.Mean = mean(w)
	}
	return md
}

// constantSeries reports whether every value of x equals the first.
func constantSeries(x []float64) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
