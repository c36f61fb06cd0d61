package gat

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// ModelMethod is the name the model goes by among the methods it is
// compared with.
const ModelMethod = "gat"

// maxOrigins bounds the forecast origins a horizon is scored from: more
// test rows than that are sampled evenly, so that scoring a long series
// costs at most maxOrigins forecasts per method.
const maxOrigins = 200

// Forecaster returns the model as a multi-step forecaster, named "gat": a
// recursive network feeds each step's prediction back as the next row, a
// direct or multi-output one forecasts in blocks of its steps (see
// Strategies); it
// builds the network once. A network anchored to a fitted baseline reads the whole
// history before the origin, which the baseline filters; otherwise it
// reads only the Span rows before it.
func (m *Model) Forecaster() (baseline.Forecaster, error) {
	net, err := m.net()
	if err != nil {
		return nil, err
	}
	anchor, err := m.Anchor.forecaster()
	if err != nil {
		return nil, err
	}
	return forecasterOf(net, m.Config, anchor), nil
}

// forecasterOf is the multi-step forecaster of net under cfg anchored to
// anchor (nil: the last value), as Model.Forecaster describes it.
func forecasterOf(net *Net, cfg Config, anchor baseline.Forecaster) baseline.Forecaster {
	if cfg.steps() > 1 {
		return &blocks{net: net, cfg: cfg, anchor: anchor}
	}
	p := &onestep{net: net, cfg: cfg, anchor: anchor}
	if anchor != nil {
		return &withHistory{p: p, span: cfg.Span()}
	}
	return baseline.Recursive(p, cfg.Span())
}

// networks are the model's networks as methods: f, the model's own
// forecaster ("gat"), then the network without the graph
// ("gat_no_graph": the model's own when it has none, else its sibling's
// when it has one) and, when the model is the network without the graph
// and has a sibling, the network with it ("gat_graph").
func (m *Model) networks(f baseline.Forecaster) ([]baseline.Forecaster, error) {
	out := []baseline.Forecaster{f}
	if m.Config.NoGraph {
		out = append(out, named{f, MethodNoGraph})
	}
	sib := m.SiblingModel()
	if sib == nil {
		return out, nil
	}
	g, err := sib.Forecaster()
	if err != nil {
		return nil, err
	}
	name := MethodGraph
	if sib.Config.NoGraph {
		name = MethodNoGraph
	}
	return append(out, named{g, name}), nil
}

// named is a forecaster under another name.
type named struct {
	baseline.Forecaster
	name string
}

func (n named) Name() string { return n.name }

// onestep predicts one row with a network, for baseline.Recursive.
type onestep struct {
	net    *Net
	cfg    Config
	anchor baseline.Forecaster
	s      *sampler
}

func (p *onestep) Name() string { return ModelMethod }

func (p *onestep) Predict(m series.Matrix, t int, dst []float64) {
	if p.s == nil || p.s.m.N != m.N {
		s := newSampler(m, p.cfg, p.anchor, nil, 0)
		s.graphWorkers = p.cfg.Workers // the steps run one after another
		p.s = &s
	}
	p.s.m = m
	pred, _ := p.s.predict(p.net, t)
	for i := range dst {
		dst[i] = pred.At(i, 0)
	}
}

// withHistory forecasts recursively over a copy of every row before the
// origin, for a network whose anchor reads the whole history.
type withHistory struct {
	p    *onestep
	span int
}

func (h *withHistory) Name() string { return ModelMethod }

func (h *withHistory) Forecast(m series.Matrix, origin int, dst [][]float64) {
	if origin < h.span || origin > m.T {
		panic(fmt.Sprintf("gat: forecast origin %d needs %d rows before it, out of range for %d rows", origin, h.span, m.T))
	}
	n := m.N
	buf := make([]float64, (origin+len(dst))*n)
	copy(buf, m.Values[:origin*n])
	for k, row := range dst {
		t := origin + k
		h.p.Predict(series.Matrix{T: t, N: n, Values: buf[:t*n]}, t, row)
		copy(buf[t*n:(t+1)*n], row)
	}
}

// Methods are the model (and its other networks, see networks) and the
// baselines it is compared with, each
// fitted on the samples train of m (the model was trained before), up to
// the model's workers at once (and ets's entities split over as many, see
// fitBaseline). Baselines that cannot be fitted, such as
// ets with fewer than two seasons, are left out and reported in skipped,
// in baseline.Kinds order. A baseline that choosing the model's anchor
// fitted on the same samples of m with the same options is reused, not
// fitted again (the run's own evaluation fits the validation ladder on the
// anchor's samples). A method the model's ladder leaves out on m's
// entities (see LadderFor) is neither fitted nor reported in skipped.
func Methods(model *Model, m series.Matrix, train []int, season int) (fs []baseline.Forecaster, skipped []error, err error) {
	f, err := model.Forecaster()
	if err != nil {
		return nil, nil, err
	}
	own, err := model.networks(f)
	if err != nil {
		return nil, nil, err
	}
	kinds := ladderKinds(model.Config, m.N)
	fitted, errs := make([]baseline.Forecaster, len(kinds)), make([]error, len(kinds))
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(1, model.Config.Workers))
	for i, kind := range kinds {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			// ols and ar_diff take the model's window of lags, fitted on
			// the samples that have it.
			window := model.Config.Window
			samples := train
			if kind == baseline.KindARDiff {
				samples = slices.DeleteFunc(slices.Clone(train), func(t int) bool { return t < window+1 })
			}
			opt := baseline.Options{Window: window, Season: season}
			if f := model.Anchor.reuse(kind, m, samples, opt); f != nil {
				fitted[i] = f
				return
			}
			fitted[i], errs[i] = fitBaseline(kind, m, samples, opt, model.Config.Workers)
		})
	}
	wg.Wait()
	fs = append(fs, own...)
	for i, kind := range kinds {
		switch err := errs[i]; {
		case err == nil:
			fs = append(fs, fitted[i])
		case errors.Is(err, baseline.ErrTooShort) || errors.Is(err, baseline.ErrNoTraining):
			skipped = append(skipped, fmt.Errorf("%s: %w", kind, err))
		default:
			return nil, nil, fmt.Errorf("fit baseline %s: %w", kind, err)
		}
	}
	return fs, skipped, nil
}

// Step is one method's error at one forecast step (horizon), over forecasts
// from every origin: in the trained scale, and in original units when an
// inverse transform was given. MASE scales each entity's absolute errors
// by its in-sample seasonal naive MAE; RelMSE is MSE over last_value's at
// the same step.
type Step struct {
	Method       string   `json:"method"`
	Horizon      int      `json:"horizon"`
	MSE          float64  `json:"mse"`
	RMSE         float64  `json:"rmse"`
	MAE          float64  `json:"mae"`
	MASE         float64  `json:"mase"`
	RelMSE       float64  `json:"rel_mse"`
	MSEOriginal  *float64 `json:"mse_original,omitempty"`
	RMSEOriginal *float64 `json:"rmse_original,omitempty"`
	MAEOriginal  *float64 `json:"mae_original,omitempty"`
}

// Origins returns the forecast origins of an h-step evaluation whose
// targets lie in rows from..to-1: from..to-h, at most maxOrigins of them
// spread evenly. It returns nil when h exceeds the span.
func Origins(from, to, h int) []int { return spread(from, to, h, maxOrigins) }

// maxValOrigins bounds the validation origins a horizon above 1 is
// scored from while training (every epoch) and choosing the anchor: each
// origin costs h forecasts of the network and its anchor, the anchor's
// refiltering the history fed the network's forecasts.
const maxValOrigins = 48

// valOrigins are the validation origins of horizon h: those of Origins
// whose targets lie in the validation rows val, at most maxValOrigins.
func valOrigins(val []int, h int) []int {
	if len(val) == 0 {
		return nil
	}
	return spread(val[0], val[len(val)-1]+1, h, maxValOrigins)
}

// spread is the origins from..to-h, at most bound of them spread evenly.
func spread(from, to, h, bound int) []int {
	n := to - h + 1 - from
	if n < 1 {
		return nil
	}
	out := make([]int, 0, min(n, bound))
	for k := range min(n, bound) {
		out = append(out, from+k*n/min(n, bound))
	}
	return out
}

// Horizons scores every forecaster at steps 1..h from each origin. scale
// holds each entity's MASE scale (NaN entities are left out of MASE).
// The result is method-major: fs[0]'s steps 1..h, then fs[1]'s.
func Horizons(fs []baseline.Forecaster, m series.Matrix, origins []int, h int, scale []float64, invert Invert) []Step {
	var out []Step
	var last []Step
	for _, f := range fs {
		steps := horizons(f, m, origins, h, scale, invert)
		if f.Name() == string(baseline.KindLastValue) {
			last = steps
		}
		out = append(out, steps...)
	}
	for i := range out {
		out[i].RelMSE = math.NaN()
		if last != nil {
			out[i].RelMSE = out[i].MSE / last[out[i].Horizon-1].MSE
		}
	}
	return out
}

// horizons scores one forecaster.
func horizons(f baseline.Forecaster, m series.Matrix, origins []int, h int, scale []float64, invert Invert) []Step {
	type sums struct {
		se, ae, sc, seO, aeO float64
		n, nsc               int
	}
	acc := make([]sums, h)
	dst := baseline.Rows(h, m.N)
	for _, o := range origins {
		f.Forecast(m, o, dst)
		for k, row := range dst {
			a := &acc[k]
			for i, q := range row {
				y := m.At(o+k, i)
				d := q - y
				a.se, a.ae, a.n = a.se+d*d, a.ae+math.Abs(d), a.n+1
				if !math.IsNaN(scale[i]) {
					a.sc, a.nsc = a.sc+math.Abs(d)/scale[i], a.nsc+1
				}
				if invert != nil {
					dO := invert(i, q) - invert(i, y)
					a.seO, a.aeO = a.seO+dO*dO, a.aeO+math.Abs(dO)
				}
			}
		}
	}
	out := make([]Step, h)
	for k, a := range acc {
		n := float64(a.n)
		out[k] = Step{Method: f.Name(), Horizon: k + 1, MSE: a.se / n, RMSE: math.Sqrt(a.se / n), MAE: a.ae / n,
			MASE: a.sc / float64(a.nsc)}
		if invert != nil {
			mse, rmse, mae := a.seO/n, math.Sqrt(a.seO/n), a.aeO/n
			out[k].MSEOriginal, out[k].RMSEOriginal, out[k].MAEOriginal = &mse, &rmse, &mae
		}
	}
	return out
}

// Residuals returns, for steps 1..h, the absolute errors of f's forecasts
// from every origin whose step lies before row end, every entity's
// pooled and sorted: the nonconformity scores of split-conformal
// intervals. A step no origin reaches is empty.
func Residuals(f baseline.Forecaster, m series.Matrix, from, end, h int) [][]float64 {
	out := make([][]float64, h)
	for k, byEntity := range EntityResiduals(f, m, from, end, h) {
		out[k] = slices.Concat(byEntity...)
		slices.Sort(out[k])
	}
	return out
}

// HalfWidths are the split-conformal half-widths at level for each step
// of residuals (as Residuals returns them). A step past the validation
// span, which no origin reached, takes the last reached step's width
// scaled by sqrt(step/last): the growth of a random walk's forecast
// error, an assumption rather than a guarantee.
func HalfWidths(residuals [][]float64, level float64) []float64 {
	out := make([]float64, len(residuals))
	last := -1
	for k, r := range residuals {
		if len(r) > 0 {
			out[k], last = Quantile(r, level), k
			continue
		}
		if last < 0 {
			out[k] = math.Inf(1)
			continue
		}
		out[k] = out[last] * math.Sqrt(float64(k+1)/float64(last+1))
	}
	return out
}

// Quantile is the split-conformal half-width at level from sorted absolute
// residuals: the ceil((n+1)·level)-th smallest (Vovk et al.; Lei et al.
// 2018), +Inf when there are too few residuals for the level.
func Quantile(sorted []float64, level float64) float64 {
	k := int(math.Ceil(float64(len(sorted)+1)*level)) - 1
	if k >= len(sorted) || len(sorted) == 0 {
		return math.Inf(1)
	}
	return sorted[max(k, 0)]
}
