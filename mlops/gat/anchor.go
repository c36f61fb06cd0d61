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

// AnchorPerEntity anchors each entity to the single candidate that
// forecasts it best one step ahead on the last fitting rows (an inner
// validation span as long as the validation span, at most a third of the
// fitting samples), with the candidates fitted on the rows before them;
// each member is then fitted on every fitting row (baseline.PerEntity).
// Choosing on rows before validation keeps its validation MSE a fair
// score beside the other candidates', which "auto" weighs it against.
const AnchorPerEntity = "per_entity"

// AnchorETSARIMATheta anchors to the equal-weight mean of ets, arima and
// theta, each fitted on every training row: a fixed combination, nothing
// chosen, as the combination benchmarks of the M3 and M4 competitions
// are. Config.CombineFixed makes "auto" weigh it beside its candidates.
const AnchorETSARIMATheta = "ets_arima_theta"

// AnchorETSARIMAThetaMedian anchors to the median of the ets, arima and
// theta forecasts, each fitted on every training row: the operator of
// the SCUM combination (Petropoulos and Svetunkov 2020), which one
// failing member cannot carry as it carries a mean.
const AnchorETSARIMAThetaMedian = "ets_arima_theta_median"

// AnchorKinds are the anchors Config.Anchor may name besides "auto": the
// single candidates, then their combination, the per-entity choice and
// the fixed combinations.
func AnchorKinds() []string {
	return append(singleAnchors(), AnchorCombination, AnchorPerEntity, AnchorETSARIMATheta, AnchorETSARIMAThetaMedian)
}

// FixedCombinations are the fixed combinations Config.CombineFixed may
// name.
func FixedCombinations() []string {
	return []string{AnchorETSARIMATheta, AnchorETSARIMAThetaMedian}
}

// fixedMembers are the members of AnchorETSARIMATheta.
func fixedMembers() []string {
	return []string{string(baseline.KindETS), string(baseline.KindARIMA), string(baseline.KindTheta)}
}

// singleAnchors are the candidates a combination is made of.
func singleAnchors() []string {
	return []string{AnchorLastValue, string(baseline.KindSeasonalNaive), string(baseline.KindDrift), string(baseline.KindOLS),
		string(baseline.KindETS), string(baseline.KindTheta), string(baseline.KindARIMA)}
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
	// Choice is, for a per-entity anchor, each entity's member.
	Choice []int `json:"choice,omitempty"`
	// Median makes a combination forecast its members' median, not
	// their mean.
	Median bool `json:"median,omitempty"`
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

// String names the anchor, and a combination's or a per-entity choice's
// members.
func (a *Anchor) String() string {
	if a.Kind != AnchorCombination && a.Kind != AnchorPerEntity {
		return a.Kind
	}
	names := make([]string, len(a.Members))
	for i, m := range a.Members {
		names[i] = m.Kind
	}
	kind := a.Kind
	if a.Median {
		kind = "median"
	}
	return kind + " of " + strings.Join(names, ", ")
}

// forecaster decodes the fitted baseline; nil for the last value.
func (a *Anchor) forecaster() (baseline.Forecaster, error) {
	if a == nil || a.Kind == AnchorLastValue {
		return nil, nil
	}
	var f baseline.Forecaster
	switch baseline.Kind(a.Kind) {
	case baseline.KindMean:
		members, err := a.members()
		return &baseline.Mean{Members: members, Median: a.Median}, err
	case AnchorPerEntity:
		members, err := a.members()
		return &baseline.PerEntity{Members: members, Choice: a.Choice}, err
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

// members decodes a combination's or a per-entity choice's members.
func (a *Anchor) members() ([]baseline.Forecaster, error) {
	out := make([]baseline.Forecaster, len(a.Members))
	for i, member := range a.Members {
		g, err := member.forecaster()
		if err != nil {
			return nil, err
		}
		if g == nil {
			g = baseline.LastValue{}
		}
		out[i] = g
	}
	return out, nil
}

// anchorSpan is how many rows before its target the anchor reads.
func anchorSpan(kind string, window, season int) int {
	switch baseline.Kind(kind) {
	case baseline.KindSeasonalNaive:
		return max(1, season)
	case baseline.KindOLS:
		return window
	case baseline.KindTheta, baseline.KindDrift, baseline.KindARIMA, AnchorETSARIMATheta, AnchorETSARIMAThetaMedian:
		return 1
	case baseline.KindMean, AnchorPerEntity:
		span := 0
		for _, k := range singleAnchors() {
			span = max(span, anchorSpan(k, window, season))
		}
		return span
	}
	return 0
}

// candidate is an anchor fitAnchor weighs: the forecaster the untrained
// network equals, and its validation MSE.
type candidate struct {
	anchor *Anchor
	f      baseline.Forecaster
	mse    float64
}

// fitAnchor fits cfg's anchor on the training samples, fit and val, as
// evaluate fits the ladder. "auto" chooses by rolling-origin validation
// (see chooseAnchor); "combination" keeps the better of the combinations
// of the best two or three candidates by validation MSE at cfg's horizon
// (see validationMSE), and "per_entity" each entity's best (see
// perEntity), each candidate fitted on the fitting samples to choose;
// "ets_arima_theta" and "ets_arima_theta_median" are the mean and the
// median of their three members fitted on every training sample.
func fitAnchor(cfg Config, m series.Matrix, fit, val []int) (*Anchor, error) {
	kind := cmp.Or(cfg.Anchor, AnchorLastValue)
	train := slices.Concat(fit, val)
	switch kind {
	case AnchorAuto:
		return chooseAnchor(cfg, m, fit, val)
	case AnchorETSARIMATheta, AnchorETSARIMAThetaMedian:
		a, chosen, err := fitChosen(cfg, m, train, fixedMembers())
		if err != nil {
			return nil, err
		}
		a.Median, a.fits = kind == AnchorETSARIMAThetaMedian, chosen
		return a, nil
	case AnchorCombination, AnchorPerEntity:
		a, err := poolAnchor(cfg, m, fit, val, kind)
		if err != nil {
			return nil, err
		}
		return refitMembers(cfg, m, train, a)
	}
	a, _, err := fitOne(cfg, m, train, kind)
	return a, err
}

// refitMembers refits the members of a, a combination or a per-entity
// choice, on the samples train, keeping what a chose.
func refitMembers(cfg Config, m series.Matrix, train []int, a *Anchor) (*Anchor, error) {
	out := *a
	out.Members = make([]*Anchor, len(a.Members))
	for i, member := range a.Members {
		kind := member.Kind
		if kind == string(baseline.KindARDiff) {
			kind = AnchorLastValue // the highway's autoregression, see standalone
		}
		refit, _, err := fitOne(cfg, m, train, kind)
		if err != nil {
			return nil, err
		}
		if out.Members[i], err = standalone(cfg, m, train, refit); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// poolAnchor is the anchor "combination" or "per_entity" fitted on the
// fitting samples: the better of the combinations, or each entity's best
// candidate, by validation MSE.
func poolAnchor(cfg Config, m series.Matrix, fit, val []int, kind string) (*Anchor, error) {
	var fits []fitted
	kinds := candidateKinds(cfg, m.N)
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
				fitted[i] = &candidate{a, f, validationMSE(f, m, val, cfg.horizon())}
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
		combined = append(combined, candidate{a, mean, validationMSE(mean, m, val, cfg.horizon())})
		bestCombined = min(bestCombined, combined[len(combined)-1].mse)
	}
	if len(combined) > 0 {
		scores[AnchorCombination] = bestCombined
	}
	var chosen []candidate
	if a, f, err := perEntity(cfg, m, fit, len(val), singles); err != nil {
		return nil, err
	} else if a != nil {
		chosen = []candidate{{a, f, validationMSE(f, m, val, cfg.horizon())}}
		scores[AnchorPerEntity] = chosen[0].mse
	}
	pool := combined
	if kind == AnchorPerEntity {
		pool = chosen
	}
	if len(pool) == 0 {
		return nil, fmt.Errorf("gat: no anchor could be fitted")
	}
	best := slices.MinFunc(pool, func(a, b candidate) int { return cmp.Compare(a.mse, b.mse) })
	best.anchor.Validation, best.anchor.fits = scores, fits
	return best.anchor, nil
}

// perEntity is the per-entity anchor (AnchorPerEntity) among the fitted
// single candidates singles, with the forecaster the untrained network
// equals; nil when fewer than two candidates or too few fitting samples
// leave nothing to choose. Its inner validation span is the last
// min(valLen, len(fit)/3) fitting samples (at least 2).
func perEntity(cfg Config, m series.Matrix, fit []int, valLen int, singles []candidate) (*Anchor, baseline.Forecaster, error) {
	k := min(max(valLen, 2), len(fit)/3)
	if len(singles) < 2 || k < 2 {
		return nil, nil, nil
	}
	core, inner := fit[:len(fit)-k], fit[len(fit)-k:]
	best, choice := make([]float64, m.N), make([]int, m.N)
	for i := range best {
		best[i], choice[i] = math.Inf(1), -1
	}
	for j, c := range singles {
		_, f, err := fitOne(cfg, m, core, c.anchor.Kind)
		if err != nil {
			continue // a candidate the shorter rows cannot fit is not chosen
		}
		for i, e := range oneStepMSE(f, m, inner) {
			if e < best[i] {
				best[i], choice[i] = e, j
			}
		}
	}
	a := &Anchor{Kind: AnchorPerEntity, Choice: make([]int, m.N)}
	p := &baseline.PerEntity{Choice: a.Choice}
	index := map[int]int{} // a single's index -> its member's
	for i, j := range choice {
		j = max(j, 0)
		if _, ok := index[j]; !ok {
			member, err := standalone(cfg, m, fit, singles[j].anchor)
			if err != nil {
				return nil, nil, err
			}
			index[j] = len(a.Members)
			a.Members, p.Members = append(a.Members, member), append(p.Members, singles[j].f)
		}
		a.Choice[i] = index[j]
	}
	return a, p, nil
}

// oneStepMSE is each entity's mean squared one-step error of f over the
// target rows samples (ascending).
func oneStepMSE(f baseline.Forecaster, m series.Matrix, samples []int) []float64 {
	from := samples[0]
	rows := anchorRows(f, m, from)
	out := make([]float64, m.N)
	for _, t := range samples {
		for i := range out {
			d := rows[(t-from)*m.N+i] - m.At(t, i)
			out[i] += d * d
		}
	}
	for i := range out {
		out[i] /= float64(len(samples))
	}
	return out
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
