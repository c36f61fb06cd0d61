package gat

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// ForecastState is what forecasting a finished version needs besides its
// networks and its data, kept by training so that a forecast fits
// nothing: each method of the ladder fitted on the training samples, at
// the end of the data (its baseline.State for those that filter the whole
// history, so that their forecasts cost the steps alone, else its fit,
// which reads only the last rows), each method's fits on the training
// and on the fitting samples (see Fits), and each method's interval widths
// (Widths) from its errors over the validation rows when fitted on the
// fitting rows, as forecast computed them before versions kept them.
type ForecastState struct {
	// Rows is the number of rows of the data the state is at the end of.
	Rows    int           `json:"rows"`
	Methods []MethodState `json:"methods"`
	// Fits says that every method of the ladder keeps its fit on the
	// training samples (Fit) and, where it could be fitted there, on the
	// fitting samples (ValFit), so that Ladder rebuilds both ladders
	// without fitting; false for versions stored before they kept them.
	Fits bool `json:"fits,omitempty"`
}

// MethodState is one method's part of a ForecastState. A method of the
// ladder has its Fit, and its State too where it filters the whole history
// (versions stored before ForecastState.Fits have one or the other);
// a network has neither.
type MethodState struct {
	Name  string          `json:"name"`
	State *baseline.State `json:"state,omitempty"`
	Fit   json.RawMessage `json:"fit,omitempty"`
	// ValFit is the method fitted on the fitting samples (see
	// ForecastState.Fits), nil for a network.
	ValFit json.RawMessage `json:"val_fit,omitempty"`
	Widths *Widths         `json:"widths,omitempty"`
}

// widthSteps is the fewest steps a version keeps the widths of, where its
// validation rows allow: forecasts further ahead grow the last kept
// step's width as the square root of the step (see Widths.HalfWidths).
const widthSteps = 12

// newForecastState keeps the state of fs, fitted on the training samples
// of m, at m's end, and the widths of vfs, the same methods fitted on the
// fitting samples, over the validation samples val at steps 1..h: the
// networks' one after the other, each over its origins split among
// workers, then the ladder's, one method to a worker.
func newForecastState(model *Model, fs, vfs []baseline.Forecaster, m series.Matrix, val []int, h, workers int) (*ForecastState, error) {
	st := &ForecastState{Rows: m.T, Methods: make([]MethodState, len(fs)), Fits: true}
	for i, f := range fs {
		st.Methods[i].Name = f.Name()
		if isNetwork(f.Name()) {
			continue
		}
		if s, ok := baseline.Resume(f, m, m.T); ok {
			st.Methods[i].State = s
		}
		fit, err := json.Marshal(f)
		if err != nil {
			return nil, fmt.Errorf("keep %s: %w", f.Name(), err)
		}
		st.Methods[i].Fit = fit
	}
	for _, f := range vfs {
		if ms := st.method(f.Name()); ms != nil && !isNetwork(f.Name()) {
			fit, err := json.Marshal(f)
			if err != nil {
				return nil, fmt.Errorf("keep %s: %w", f.Name(), err)
			}
			ms.ValFit = fit
		}
	}
	if len(val) == 0 {
		return st, nil
	}
	widths := make([]*Widths, len(vfs))
	from, end := val[0], val[len(val)-1]+1
	var ladder []int
	for k, f := range vfs {
		switch n, ok := f.(named); {
		case ok && slices.ContainsFunc(vfs[:k], func(g baseline.Forecaster) bool { return g == n.Forecaster }):
			// the same network under another name: copied below
		case isNetwork(f.Name()):
			r, err := networkResiduals(model, f.Name(), m, from, end, h, workers)
			if err != nil {
				return nil, err
			}
			widths[k] = NewWidths(r)
		default:
			ladder = append(ladder, k)
		}
	}
	eachMethod(max(1, workers), len(ladder), func(j int) {
		k := ladder[j]
		widths[k] = NewWidths(EntityResiduals(vfs[k], m, from, end, h))
	})
	for k, f := range vfs {
		if n, ok := f.(named); ok && widths[k] == nil {
			widths[k] = widths[slices.IndexFunc(vfs, func(g baseline.Forecaster) bool { return g == n.Forecaster })]
		}
		for i := range st.Methods {
			if st.Methods[i].Name == f.Name() {
				st.Methods[i].Widths = widths[k]
			}
		}
	}
	return st, nil
}

// networkResiduals are EntityResiduals of the model's network named name,
// its origins split into workers contiguous runs, each forecast by a
// network of its own (a network's forecaster keeps buffers), and joined in
// origin order: the residuals do not depend on workers.
func networkResiduals(model *Model, name string, m series.Matrix, from, end, h, workers int) ([][][]float64, error) {
	origins := Origins(from, end, 1)
	workers = max(1, min(workers, len(origins)))
	if len(origins) == 0 {
		return residualsAt(nil, m, nil, end, h), nil
	}
	parts := make([][][][]float64, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		run := origins[w*len(origins)/workers : (w+1)*len(origins)/workers]
		wg.Go(func() {
			f, err := model.network(name)
			if err != nil {
				errs[w] = err
				return
			}
			parts[w] = residualsAt(f, m, run, end, h)
		})
	}
	wg.Wait()
	if err := firstError(errs); err != nil {
		return nil, err
	}
	out := parts[0]
	for _, p := range parts[1:] {
		for k := range out {
			for i := range out[k] {
				out[k][i] = append(out[k][i], p[k][i]...)
			}
		}
	}
	return out, nil
}

// network is a fresh forecaster of the model's network named name.
func (m *Model) network(name string) (baseline.Forecaster, error) {
	f, err := m.Forecaster()
	if err != nil {
		return nil, err
	}
	own, err := m.networks(f)
	if err != nil {
		return nil, err
	}
	for _, g := range own {
		if g.Name() == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("gat: the model has no network %s", name)
}

// isNetwork reports whether a method is one of a version's networks.
func isNetwork(name string) bool {
	return name == ModelMethod || name == MethodNoGraph || name == MethodGraph
}

// method is the state of the named method, nil if the version keeps none.
func (s *ForecastState) method(name string) *MethodState {
	for i := range s.Methods {
		if s.Methods[i].Name == name {
			return &s.Methods[i]
		}
	}
	return nil
}

// Forecast returns the named method's forecasts of steps rows past m, the
// data the state was kept with: row k is step k+1. With entity >= 0 only
// that entity's column is computed (a network's over its receptive field,
// see Model.ForecastEntities); the others are 0. ok is false
// when the state has no such method or was kept for other data.
func (s *ForecastState) Forecast(model *Model, m series.Matrix, name string, steps, entity int) (preds [][]float64, ok bool, err error) {
	ms := s.method(name)
	if ms == nil || m.T != s.Rows || m.N != model.Entities {
		return nil, false, nil
	}
	preds = baseline.Rows(steps, m.N)
	switch {
	case ms.State != nil:
		if ms.State.Origin != m.T || ms.State.Entities() != m.N {
			return nil, false, nil
		}
		if entity < 0 {
			ms.State.Forecast(preds)
			return preds, true, nil
		}
		col := make([]float64, steps)
		ms.State.ForecastEntity(entity, col)
		for k := range preds {
			preds[k][entity] = col[k]
		}
		return preds, true, nil
	case ms.Fit != nil:
		f, err := decodeFit(name, ms.Fit)
		if err != nil {
			return nil, false, err
		}
		f.Forecast(m, m.T, preds)
		return preds, true, nil
	}
	if net := model.networkModel(name); net != nil && entity >= 0 {
		preds, err := net.ForecastEntities(m, steps, []int{entity})
		return preds, err == nil, err
	}
	f, err := model.Forecaster()
	if err != nil {
		return nil, false, err
	}
	own, err := model.networks(f)
	if err != nil {
		return nil, false, err
	}
	for _, f := range own {
		if f.Name() == name {
			f.Forecast(m, m.T, preds)
			return preds, true, nil
		}
	}
	return nil, false, nil
}

// networkModel is the model's network named name (see networks) as a
// model, nil if it has none of that name.
func (m *Model) networkModel(name string) *Model {
	sib := m.SiblingModel()
	switch {
	case name == ModelMethod, name == MethodNoGraph && m.Config.NoGraph:
		return m
	case sib != nil && (name == MethodNoGraph) == sib.Config.NoGraph && (name == MethodNoGraph || name == MethodGraph):
		return sib
	}
	return nil
}

// Ladder is the version's methods as Methods returns them fitted on the
// training samples (validation false) or on the fitting samples
// (validation true), rebuilt from the fits the state keeps: its networks,
// then each method of the ladder that could be fitted there, decoded, in
// the order Methods gives. Their forecasts equal those of the methods
// fitted again, bit for bit. ok is false for a state that keeps no fits.
func (s *ForecastState) Ladder(model *Model, validation bool) (fs []baseline.Forecaster, ok bool, err error) {
	if !s.Fits {
		return nil, false, nil
	}
	f, err := model.Forecaster()
	if err != nil {
		return nil, false, err
	}
	if fs, err = model.networks(f); err != nil {
		return nil, false, err
	}
	for _, ms := range s.Methods {
		data := ms.Fit
		if validation {
			data = ms.ValFit
		}
		if isNetwork(ms.Name) || data == nil {
			continue
		}
		g, err := decodeFit(ms.Name, data)
		if err != nil {
			return nil, false, err
		}
		fs = append(fs, g)
	}
	return fs, true, nil
}

// HalfWidths are the named method's half-widths at level for steps
// 1..steps (see Widths.HalfWidths); ok is false without kept widths.
func (s *ForecastState) HalfWidths(name string, steps int, level float64) (half [][]float64, ok bool) {
	return s.HalfWidthsOf(name, steps, level, -1)
}

// HalfWidthsOf is HalfWidths with, for entity >= 0, only that entity's
// column computed (the others are 0), so that one entity's intervals cost
// the steps alone.
func (s *ForecastState) HalfWidthsOf(name string, steps int, level float64, entity int) (half [][]float64, ok bool) {
	ms := s.method(name)
	if ms == nil || ms.Widths == nil {
		return nil, false
	}
	return ms.Widths.halfWidths(steps, level, entity), true
}

// Validate returns an error unless every kept state is well formed and
// every kept width has one scale per entity of n.
func (s *ForecastState) Validate(n int) error {
	for _, ms := range s.Methods {
		if ms.State != nil {
			if err := ms.State.Validate(); err != nil {
				return err
			}
		}
		if w := ms.Widths; w != nil && (len(w.Scale) != n || len(w.Steps) != len(w.Count)) {
			return fmt.Errorf("gat: widths of %s are malformed", ms.Name)
		}
	}
	return nil
}

// decodeFit decodes a fitted baseline kept by newForecastState.
func decodeFit(name string, data json.RawMessage) (baseline.Forecaster, error) {
	var f baseline.Forecaster
	switch baseline.Kind(name) {
	case baseline.KindLastValue:
		return baseline.LastValue{}, nil
	case baseline.KindSeasonalNaive:
		f = &baseline.SeasonalNaive{}
	case baseline.KindConstant:
		f = &baseline.Constant{}
	default:
		a := &Anchor{Kind: name, Fit: data}
		return a.forecaster()
	}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, fmt.Errorf("gat: decode %s: %w", name, err)
	}
	return f, nil
}

// Widths are a method's validation errors in the form interval widths
// read them (EntityHalfWidths): each entity's scale and, for each step,
// the errors over their entity's scale pooled and sorted. A step keeps
// all of its pooled errors up to widthsKept of them, and past that
// widthsKept+1 order statistics evenly spaced over them, Count being how
// many they stand for; a quantile read from those is the next kept order
// statistic at or above the exact one, so an interval is never narrower
// than the one from every error, and its level errs by at most
// 1/widthsKept upwards.
type Widths struct {
	Scale []float64   `json:"scale"`
	Steps [][]float64 `json:"steps"`
	Count []int       `json:"count"`
}

// widthsKept bounds the pooled errors a step keeps.
const widthsKept = 1024

// NewWidths keeps residuals as EntityResiduals returns them.
func NewWidths(residuals [][][]float64) *Widths {
	w := &Widths{Steps: make([][]float64, len(residuals)), Count: make([]int, len(residuals))}
	if len(residuals) == 0 {
		return w
	}
	w.Scale = entityScales(residuals[0])
	for k, byEntity := range residuals {
		var pooled []float64
		for i, r := range byEntity {
			for _, v := range r {
				pooled = append(pooled, v/w.Scale[i])
			}
		}
		slices.Sort(pooled)
		w.Count[k] = len(pooled)
		if len(pooled) <= widthsKept {
			w.Steps[k] = pooled
			continue
		}
		n := len(pooled)
		w.Steps[k] = make([]float64, widthsKept+1)
		for j := range w.Steps[k] {
			w.Steps[k][j] = pooled[(j*(n-1)+widthsKept-1)/widthsKept]
		}
	}
	return w
}

// quantile is Quantile of step k's pooled errors, or the kept order
// statistic next above it.
func (w *Widths) quantile(k int, level float64) float64 {
	n, kept := w.Count[k], w.Steps[k]
	r := int(math.Ceil(float64(n+1)*level)) - 1
	if r >= n || n == 0 {
		return math.Inf(1)
	}
	r = max(r, 0)
	if len(kept) == n {
		return kept[r]
	}
	return kept[(r*widthsKept+n-2)/(n-1)]
}

// HalfWidths are each entity's half-widths at level for steps 1..steps,
// as EntityHalfWidths gives them from the residuals kept: steps past those
// kept grow the last kept step's width by the square root of the step.
func (w *Widths) HalfWidths(steps int, level float64) [][]float64 {
	return w.halfWidths(steps, level, -1)
}

// halfWidths is HalfWidths with, for entity >= 0, only that entity's
// column computed (each entity's depends on its own scale alone).
func (w *Widths) halfWidths(steps int, level float64, entity int) [][]float64 {
	out := make([][]float64, steps)
	last := -1
	for k := range out {
		out[k] = make([]float64, len(w.Scale))
		reached := k < len(w.Steps) && w.Count[k] > 0
		var q float64
		if reached {
			q = w.quantile(k, level)
		}
		for i, scale := range w.Scale {
			if entity >= 0 && i != entity {
				continue
			}
			switch {
			case reached:
				out[k][i] = q * scale
			case last < 0:
				out[k][i] = math.Inf(1)
			default:
				out[k][i] = out[last][i] * math.Sqrt(float64(k+1)/float64(last+1))
			}
		}
		if reached {
			last = k
		}
	}
	return out
}
