package gat

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// An anchored network (Config.Target "change") adds its output to an
// anchor's one-step forecast: the last value (Anchor "last_value", with
// the highway started at the least-squares autoregression on differences
// it is the ar_diff baseline), or a fitted statistical baseline such as
// ets or theta, the hybrid of exponential smoothing and a network that
// won the M4 competition (Smyl 2020). Anchor "auto" takes the candidate
// with the lowest validation MSE, fitted on the rows before validation;
// the network then starts as that candidate and, since the weights kept
// are the best on validation, can only depart from it where validation
// says the departure helps.

// AnchorAuto chooses the anchor on validation.
const AnchorAuto = "auto"

// AnchorLastValue anchors to the last value (and the highway).
const AnchorLastValue = "last_value"

// AnchorCombination anchors to the equal-weight mean of the two or three
// candidates with the lowest validation MSE (baseline.Mean), whichever
// pair or triple is lower on validation. "auto" weighs it beside the
// single candidates.
const AnchorCombination = string(baseline.KindMean)

// AnchorKinds are the anchors Config.Anchor may name besides "auto": the
// single candidates, then their combination.
func AnchorKinds() []string {
	return append(singleAnchors(), AnchorCombination)
}

// singleAnchors are the candidates a combination is made of.
func singleAnchors() []string {
	return []string{AnchorLastValue, string(baseline.KindSeasonalNaive), string(baseline.KindDrift), string(baseline.KindOLS),
		string(baseline.KindETS), string(baseline.KindTheta)}
}

// Anchor is a fitted anchor as a model stores it.
type Anchor struct {
	Kind string `json:"kind"`
	// Fit is the fitted baseline, as JSON; empty for the last value and a
	// combination.
	Fit json.RawMessage `json:"fit,omitempty"`
	// Members are a combination's anchors, each with its own fit: a
	// member standing for the last value with the highway is the
	// highway's autoregression as a fitted ar_diff.
	Members []*Anchor `json:"members,omitempty"`
	// Validation holds each candidate's validation MSE when the anchor
	// was chosen automatically.
	Validation map[string]float64 `json:"validation,omitempty"`

	// fits are the baselines fitted to choose the anchor, kept for the
	// run's evaluation (see reuse); not stored, so a decoded anchor has none.
	fits []fitted
}

// fitted is a baseline fitted on the samples of m with opt.
type fitted struct {
	kind    baseline.Kind
	m       series.Matrix
	samples []int
	opt     baseline.Options
	f       baseline.Forecaster
}

// reuse returns the baseline of kind that choosing a fitted on the same
// samples of the same matrix with the same options, or nil. The matrix is
// the same when it shares its values' backing array and shape: a fit is
// deterministic in those, so the one kept forecasts as a new fit would.
// Forecasters are read-only once fitted, so one may serve both.
func (a *Anchor) reuse(kind baseline.Kind, m series.Matrix, samples []int, opt baseline.Options) baseline.Forecaster {
	if a == nil {
		return nil
	}
	for _, f := range a.fits {
		if f.kind == kind && f.opt == opt && sameMatrix(f.m, m) && slices.Equal(f.samples, samples) {
			return f.f
		}
	}
	return nil
}

// sameMatrix reports whether a and b are one matrix: the same shape over
// the same backing array.
func sameMatrix(a, b series.Matrix) bool {
	return a.N == b.N && a.T == b.T && len(a.Values) == len(b.Values) &&
		(len(a.Values) == 0 || &a.Values[0] == &b.Values[0])
}

// String names the anchor, and a combination's members.
func (a *Anchor) String() string {
	if a.Kind != AnchorCombination {
		return a.Kind
	}
	names := make([]string, len(a.Members))
	for i, m := range a.Members {
		names[i] = m.Kind
	}
	return a.Kind + " of " + strings.Join(names, ", ")
}

// forecaster decodes the fitted baseline; nil for the last value.
func (a *Anchor) forecaster() (baseline.Forecaster, error) {
	if a == nil || a.Kind == AnchorLastValue {
		return nil, nil
	}
	var f baseline.Forecaster
	switch baseline.Kind(a.Kind) {
	case baseline.KindMean:
		mean := &baseline.Mean{}
		for _, member := range a.Members {
			g, err := member.forecaster()
			if err != nil {
				return nil, err
			}
			if g == nil {
				g = baseline.LastValue{}
			}
			mean.Members = append(mean.Members, g)
		}
		return mean, nil
	case baseline.KindARDiff:
		f = &baseline.ARDiff{}
	case baseline.KindSeasonalNaive:
		f = &baseline.SeasonalNaive{}
	case baseline.KindDrift:
		f = &baseline.Drift{}
	case baseline.KindOLS:
		f = &baseline.OLS{}
	case baseline.KindETS:
		f = &baseline.ETS{}
	case baseline.KindTheta:
		f = &baseline.Theta{}
	case baseline.KindARIMA:
		f = &baseline.ARIMA{}
	default:
		return nil, fmt.Errorf("gat: unknown anchor %q", a.Kind)
	}
	if err := json.Unmarshal(a.Fit, f); err != nil {
		return nil, fmt.Errorf("gat: decode anchor %s: %w", a.Kind, err)
	}
	return f, nil
}

// anchorSpan is how many rows before its target the anchor reads.
func anchorSpan(kind string, window, season int) int {
	switch baseline.Kind(kind) {
	case baseline.KindSeasonalNaive:
		return max(1, season)
	case baseline.KindOLS:
		return window
	case baseline.KindTheta, baseline.KindDrift, baseline.KindARIMA:
		return 1
	case baseline.KindMean:
		span := 0
		for _, k := range singleAnchors() {
			span = max(span, anchorSpan(k, window, season))
		}
		return span
	}
	return 0
}

// fitAnchor fits cfg's anchor on the fitting samples. "auto" fits every
// single candidate and their combinations and keeps the one with the
// lowest one-step MSE on val; "combination" keeps the better of the
// combinations.
func fitAnchor(cfg Config, m series.Matrix, fit, val []int) (*Anchor, error) {
	kind := cmp.Or(cfg.Anchor, AnchorLastValue)
	if kind != AnchorAuto && kind != AnchorCombination {
		a, _, err := fitOne(cfg, m, fit, kind)
		return a, err
	}
	var fits []fitted
	type candidate struct {
		anchor *Anchor
		f      baseline.Forecaster
		mse    float64
	}
	kinds := slices.DeleteFunc(singleAnchors(), func(k string) bool { return k == string(baseline.KindSeasonalNaive) && cfg.Season <= 1 })
	// The candidates are fitted and scored at once, up to the run's
	// workers; a candidate that cannot be fitted is not chosen.
	fitted := make([]*candidate, len(kinds))
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(1, cfg.Workers))
	for i, kind := range kinds {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			if a, f, err := fitOne(cfg, m, fit, kind); err == nil {
				fitted[i] = &candidate{a, f, baseline.MSE(f, m, val, nil)}
			}
		})
	}
	wg.Wait()
	var singles []candidate
	scores := map[string]float64{}
	for i, c := range fitted {
		if c != nil {
			scores[kinds[i]] = c.mse
			singles = append(singles, *c)
			fits = append(fits, c.anchor.fits...)
		}
	}
	slices.SortStableFunc(singles, func(a, b candidate) int { return cmp.Compare(a.mse, b.mse) })
	var combined []candidate
	bestCombined := math.Inf(1)
	for n := 2; n <= min(3, len(singles)); n++ {
		mean, a := &baseline.Mean{}, &Anchor{Kind: AnchorCombination}
		for _, c := range singles[:n] {
			member, err := standalone(cfg, m, fit, c.anchor)
			if err != nil {
				return nil, err
			}
			mean.Members, a.Members = append(mean.Members, c.f), append(a.Members, member)
		}
		combined = append(combined, candidate{a, mean, baseline.MSE(mean, m, val, nil)})
		bestCombined = min(bestCombined, combined[len(combined)-1].mse)
	}
	if len(combined) > 0 {
		scores[AnchorCombination] = bestCombined
	}
	pool := combined
	if kind == AnchorAuto {
		pool = append(singles, combined...)
	}
	if len(pool) == 0 {
		return nil, fmt.Errorf("gat: no anchor could be fitted")
	}
	best := slices.MinFunc(pool, func(a, b candidate) int { return cmp.Compare(a.mse, b.mse) })
	best.anchor.Validation, best.anchor.fits = scores, fits
	return best.anchor, nil
}

// standalone is a as a member of a combination: the last value with a
// highway becomes the highway's autoregression, fitted as ar_diff, since
// a combination's network starts with its highway at zero.
func standalone(cfg Config, m series.Matrix, fit []int, a *Anchor) (*Anchor, error) {
	if a.Kind != AnchorLastValue || cfg.Highway == 0 {
		return &Anchor{Kind: a.Kind, Fit: a.Fit}, nil
	}
	f, err := baseline.FitARDiff(m, cfg.Highway, fit)
	if err != nil {
		return nil, fmt.Errorf("gat: fit anchor ar_diff: %w", err)
	}
	data, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	return &Anchor{Kind: string(baseline.KindARDiff), Fit: data}, nil
}

// fitOne fits one anchor on the fitting samples and returns it with the
// forecaster the untrained network equals.
func fitOne(cfg Config, m series.Matrix, fit []int, kind string) (*Anchor, baseline.Forecaster, error) {
	if kind == AnchorLastValue {
		if cfg.Highway == 0 {
			return &Anchor{Kind: kind}, baseline.LastValue{}, nil
		}
		f, err := baseline.FitARDiff(m, cfg.Highway, fit)
		return &Anchor{Kind: kind}, f, err
	}
	opt := baseline.Options{Window: cfg.Window, Season: max(1, cfg.Season)}
	f, err := fitBaseline(baseline.Kind(kind), m, fit, opt, cfg.Workers)
	if err != nil {
		return nil, nil, fmt.Errorf("gat: fit anchor %s: %w", kind, err)
	}
	data, err := json.Marshal(f)
	if err != nil {
		return nil, nil, err
	}
	return &Anchor{Kind: kind, Fit: data, fits: []fitted{{baseline.Kind(kind), m, slices.Clone(fit), opt, f}}}, f, nil
}

// anchorRows are the anchor's one-step forecasts of rows from..m.T-1 of
// m, row-major from row from: computed once for the training matrix, so
// that a sample does not refilter the history.
func anchorRows(f baseline.Forecaster, m series.Matrix, from int) []float64 {
	out := make([]float64, (m.T-from)*m.N)
	if o, ok := f.(baseline.OneStepper); ok {
		o.OneStep(m, from, out)
		return out
	}
	for t := from; t < m.T; t++ {
		f.Forecast(m, t, [][]float64{out[(t-from)*m.N : (t-from+1)*m.N]})
	}
	return out
}
