package gat

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"

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

// AnchorKinds are the anchors Config.Anchor may name besides "auto".
func AnchorKinds() []string {
	return []string{AnchorLastValue, string(baseline.KindSeasonalNaive), string(baseline.KindDrift), string(baseline.KindOLS),
		string(baseline.KindETS), string(baseline.KindTheta)}
}

// Anchor is a fitted anchor as a model stores it.
type Anchor struct {
	Kind string `json:"kind"`
	// Fit is the fitted baseline, as JSON; empty for the last value.
	Fit json.RawMessage `json:"fit,omitempty"`
	// Validation holds each candidate's validation MSE when the anchor
	// was chosen automatically.
	Validation map[string]float64 `json:"validation,omitempty"`
}

// forecaster decodes the fitted baseline; nil for the last value.
func (a *Anchor) forecaster() (baseline.Forecaster, error) {
	if a == nil || a.Kind == AnchorLastValue {
		return nil, nil
	}
	var f baseline.Forecaster
	switch baseline.Kind(a.Kind) {
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
	case baseline.KindTheta, baseline.KindDrift:
		return 1
	}
	return 0
}

// fitAnchor fits cfg's anchor on the fitting samples; "auto" fits every
// candidate and keeps the one with the lowest one-step MSE on val.
func fitAnchor(cfg Config, m series.Matrix, fit, val []int) (*Anchor, error) {
	kinds := []string{cmp.Or(cfg.Anchor, AnchorLastValue)}
	if cfg.Anchor == AnchorAuto {
		kinds = slices.DeleteFunc(AnchorKinds(), func(k string) bool { return k == string(baseline.KindSeasonalNaive) && cfg.Season <= 1 })
	}
	var best *Anchor
	bestMSE, scores := math.Inf(1), map[string]float64{}
	for _, kind := range kinds {
		a, f, err := fitOne(cfg, m, fit, kind)
		if err != nil {
			if cfg.Anchor == AnchorAuto {
				continue // a candidate that cannot be fitted is not chosen
			}
			return nil, err
		}
		if cfg.Anchor != AnchorAuto {
			return a, nil
		}
		scores[kind] = baseline.MSE(f, m, val, nil)
		if scores[kind] < bestMSE {
			best, bestMSE = a, scores[kind]
		}
	}
	if best == nil {
		return nil, fmt.Errorf("gat: no anchor could be fitted")
	}
	best.Validation = scores
	return best, nil
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
	f, err := baseline.FitForecaster(baseline.Kind(kind), m, fit, baseline.Options{Window: cfg.Window, Season: max(1, cfg.Season)})
	if err != nil {
		return nil, nil, fmt.Errorf("gat: fit anchor %s: %w", kind, err)
	}
	data, err := json.Marshal(f)
	if err != nil {
		return nil, nil, err
	}
	return &Anchor{Kind: kind, Fit: data}, f, nil
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
