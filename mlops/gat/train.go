package gat

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// Config are the options of a training run (see DefaultConfig).
type Config struct {
	Window        int     `json:"window"`
	Hidden        []int   `json:"hidden"`
	Heads         int     `json:"heads"`
	Epochs        int     `json:"epochs"`
	LR            float64 `json:"lr"`
	Momentum      float64 `json:"momentum"`
	Optimizer     string  `json:"optimizer"` // "sgd" or "adam"
	BatchSize     int     `json:"batch_size"`
	TrainFraction float64 `json:"train_fraction"`
	// Patience is how many epochs without a lower validation MSE (without
	// validation: training MSE) end training early; 0 never does.
	Patience  int    `json:"patience"`
	Workers   int    `json:"workers"`
	Seed      uint64 `json:"seed"`
	Neighbors int    `json:"neighbors"` // edges kept per node, by |correlation|; 0 keeps all
	// Target is "change" (anchored: inputs and output relative to each
	// node's last value) or "level" (the published network). Models stored
	// before it existed decode with "" and are "level".
	Target string `json:"target,omitempty"`
	// Highway is the number of lags of the linear autoregression added to
	// the output (differences when anchored, values otherwise); 0 is none.
	// It starts at the least-squares fit on the training samples.
	Highway int `json:"highway,omitempty"`
	// Clip bounds the global norm of every step's gradient; 0 does not.
	Clip float64 `json:"clip,omitempty"`
	// ValidationFraction of the training rows, the last ones, validate:
	// the network is fitted on the rows before them, and the weights kept
	// are those of the epoch (the untrained network, epoch 0, included)
	// with the lowest validation MSE. 0 keeps the last epoch's.
	ValidationFraction float64 `json:"validation_fraction,omitempty"`
	// Season is the number of rows in a season that the seasonal
	// baselines and MASE use; 0 or 1 is none.
	Season int `json:"season,omitempty"`
	// Anchor is what an anchored network's output is added to: "auto"
	// (chosen on validation, see fitAnchor), "last_value" ("" in models
	// stored before it existed) or one of AnchorKinds' baselines.
	Anchor string `json:"anchor,omitempty"`
	// Horizon is how many steps validation scores: the validation MSE
	// (early stopping, the kept epoch, the anchor "auto" chooses) is the
	// mean over steps 1..Horizon of the recursive forecasts' MSE from the
	// validation origins (see Origins). 0 (models stored before it
	// existed) is 1, the one-step MSE.
	Horizon int `json:"horizon,omitempty"`
	// NoGraph trains the network on graphs of self loops only: every
	// entity attends to itself alone, so the network sees no other
	// entity's values (the twin that measures what the graph adds).
	NoGraph bool `json:"no_graph,omitempty"`
	// Strategy is how the network forecasts past one step (see
	// Strategies): "recursive" ("" in models stored before it existed),
	// "direct" or "multi_output".
	Strategy string `json:"strategy,omitempty"`
	// KeepNetwork is how validation chooses between the trained epochs
	// and the network training starts from (see KeepRules): "best" keeps
	// the lowest validation MSE; "significant" keeps a trained epoch only
	// where a sign test finds it better than the first network; "shrunk"
	// keeps the lowest, shrunk toward the anchor (see Shrink); "one_se"
	// keeps a trained epoch only where it beats the first network by more
	// than one standard error (see oneSEKeeps), and "one_se_horizons" (the
	// default, "") also where it does so over steps 1..season. Models
	// stored before "one_se_horizons" was the default were trained under
	// "best" with "".
	KeepNetwork string `json:"keep_network,omitempty"`
	// CombineFixed, when not empty, is a fixed combination (one of
	// FixedCombinations) that anchor "auto" weighs beside its candidates,
	// scored on the same rolling origins; it has no effect on another
	// anchor.
	CombineFixed string `json:"combine_fixed,omitempty"`
	// AnchorOrigins is where anchor "auto" scores its candidates (see
	// AnchorOriginsFor): "rolling" (every rolling origin), "validation"
	// (the validation span alone) or "" (by the number of entities).
	AnchorOrigins string `json:"anchor_origins,omitempty"`
	// Ladder is which methods the ladder fits on every entity, and which
	// of them anchor "auto" weighs (see LadderFor): "full", "without_arima"
	// or "" (by the number of entities).
	Ladder string `json:"ladder,omitempty"`
}

// horizon is the number of steps validation scores, at least 1.
func (c Config) horizon() int { return max(1, c.Horizon) }

// DefaultConfig is the default configuration: the published network
// (three convolutions 16, 16, 1, SGD lr 0.005 momentum 0.9, batch 32)
// anchored to the last value with a highway of 4 lags, gradients clipped
// at 5, and early stopping on the last 15 % of the training rows.
func DefaultConfig() Config {
	return Config{Window: 4, Hidden: []int{16, 16}, Heads: 1, Epochs: 200, LR: 0.005, Momentum: 0.9,
		Optimizer: "sgd", BatchSize: 32, TrainFraction: 0.7, Workers: 1, Patience: 20,
		Target: "change", Highway: 4, Clip: 5, ValidationFraction: 0.15, Anchor: AnchorAuto}
}

// PublishedConfig is the published network as it was trained before
// anchoring: raw windows in, the next value out, no highway, no clipping,
// no validation (the last epoch is kept) and no early stopping.
func PublishedConfig() Config {
	c := DefaultConfig()
	c.Target, c.Highway, c.Clip, c.ValidationFraction, c.Patience, c.Anchor = "level", 0, 0, 0, 0, ""
	return c
}

// anchored reports whether the network predicts changes from the last value.
func (c Config) anchored() bool { return c.Target == "change" }

// Span is how many rows before its target a sample reads: the window, and
// the highway's lags (and the value before them, for a difference).
func (c Config) Span() int {
	lags := c.Highway
	if c.anchored() && lags > 0 {
		lags++
	}
	span := max(c.Window, lags)
	if c.anchored() {
		kinds := []string{c.Anchor}
		if c.Anchor == AnchorAuto {
			kinds = AnchorKinds()
		}
		for _, k := range kinds {
			span = max(span, anchorSpan(k, c.Window, c.Season))
		}
	}
	return span
}

// Samples splits m's samples for cfg: fit (the network is trained on
// them), validation (the last ValidationFraction of the training rows;
// empty without validation) and test, chronologically.
func (c Config) Samples(m series.Matrix) (fit, val, test []int, err error) {
	train, test, err := series.Split(m, c.Span(), c.TrainFraction)
	if err != nil {
		return nil, nil, nil, err
	}
	if c.ValidationFraction <= 0 {
		return train, nil, test, nil
	}
	rows := len(train) + c.Span() // the training rows
	n := int(math.Floor(c.ValidationFraction * float64(rows)))
	if n < 1 || n >= len(train) {
		return nil, nil, nil, fmt.Errorf("%w: validation_fraction %v of %d training rows leaves %d validation and %d fitting samples",
			series.ErrEmptySplit, c.ValidationFraction, rows, n, len(train)-n)
	}
	return train[:len(train)-n], train[len(train)-n:], test, nil
}

// Epoch reports one epoch: the mean squared error over the fitting, the
// validation (NaN without validation) and the test samples after it,
// whether it is the best so far (the lowest validation MSE, or training
// MSE without validation, the untrained network counting as epoch 0),
// and the time since training started.
type Epoch struct {
	Epoch                     int
	TrainMSE, ValMSE, TestMSE float64
	Best                      bool
	Elapsed                   time.Duration
	// Setup is the part of Elapsed spent before the first epoch: fitting
	// the anchor and the highway, and scoring the network training starts
	// from.
	Setup time.Duration
	// Snapshot copies the model as it is after this epoch; it may be
	// called only while the report of the epoch runs.
	Snapshot func() *Model
}

// Train trains a network on m. report is called after every epoch, from
// one goroutine; an error from it, or ctx's, stops training. Workers split
// every mini-batch and average their gradients through a parallel.Local
// collective, so the result depends on the seed and the data, and on the
// number of workers only through the order of floating-point sums.
func Train(ctx context.Context, cfg Config, m series.Matrix, report func(Epoch) error) (*Model, error) {
	return TrainFrom(ctx, cfg, m, Start{}, report)
}

// Start is where a training run begins: from scratch (the zero Start), or
// from a model's weights after the epochs it has done. The optimiser's
// state (momentum, Adam's moments) starts afresh either way.
type Start struct {
	Model *Model
	Epoch int
	// Anchor, if not nil and Model is nil, is the anchor of the run,
	// fitted by an earlier run on the same matrix and configuration
	// (Model.Anchor), so that a twin need not fit it again.
	Anchor *Anchor
}

// TrainFrom trains as Train does, from start: epochs are numbered on from
// start.Epoch, up to cfg.Epochs. The model's architecture must be cfg's.
// With validation the model returned has the weights of the best epoch
// (Model.Kept says which); without, the last epoch's.
func TrainFrom(ctx context.Context, cfg Config, m series.Matrix, start Start, report func(Epoch) error) (*Model, error) {
	return TrainOn(ctx, parallel.NewLocal(cfg.Workers), cfg, m, start, report)
}

// TrainOn trains as TrainFrom does, with the workers of coll (cfg.Workers
// of them) that run in this process (see parallel.Locals): workers in
// other processes, each training on the same m, take their shares of
// every mini-batch. Every process returns the same model; report is
// called in the process of rank 0 only.
func TrainOn(ctx context.Context, coll parallel.Collective, cfg Config, m series.Matrix, start Start, report func(Epoch) error) (*Model, error) {
	return train(ctx, coll, cfg, m, start, report, nil)
}

// train is TrainOn, in a process of a sharded run unless shard is nil
// (see TrainShard).
func train(ctx context.Context, coll parallel.Collective, cfg Config, m series.Matrix, start Start, report func(Epoch) error,
	shard *sharding) (*Model, error) {
	if coll.Size() != cfg.Workers {
		return nil, fmt.Errorf("gat: a collective of %d workers for workers %d", coll.Size(), cfg.Workers)
	}
	if shard != nil && cfg.KeepNetwork == KeepShrunk {
		return nil, errors.New("gat: keep_network 'shrunk' fits its weight on every validation row; a sharded run holds only its own")
	}
	if shard != nil && cfg.horizon() > 1 {
		return nil, fmt.Errorf("gat: horizon %d needs every row in each process; a sharded run validates one step ahead (horizon 1)", cfg.Horizon)
	}
	fit, val, test, err := cfg.Samples(m)
	if err != nil {
		return nil, err
	}
	lead, locals := parallel.Locals(coll)
	run := &training{cfg: cfg, m: m, train: fit, val: val, test: test, coll: coll, lead: lead, locals: locals,
		start: time.Now(), report: report, first: start.Epoch + 1, graphs: newGraphCache(m, cfg.Neighbors), shard: shard}
	anchor, err := startAnchor(cfg, m, fit, val, start)
	if err != nil {
		return nil, err
	}
	run.anchor = anchor
	if len(val) > 0 && cfg.horizon() > 1 {
		run.origins = valOrigins(val, cfg.horizon())
	}
	run.gate, run.gateH = gateOrigins(cfg, val, shard)
	if run.anchorFit, err = anchor.forecaster(); err != nil {
		return nil, err
	}
	switch {
	case run.anchorFit != nil && shard != nil:
		if shard.pre == nil {
			return nil, fmt.Errorf("gat: a sharded run anchored to %s needs its forecasts (see Prepare)", anchor)
		}
		run.pre = shard.pre
	case run.anchorFit != nil:
		run.pre = anchorRows(run.anchorFit, m, cfg.Span())
	}
	if err := run.prepareOutputs(); err != nil {
		return nil, err
	}
	init, err := initialNet(cfg, m, fit, anchor, start)
	if err != nil {
		return nil, err
	}
	if locals == cfg.Workers { // a process of a run across processes would predict its workers' shares only
		run.preds = [2]*predictions{newPredictions(cfg, m), newPredictions(cfg, m)}
	}
	for _, p := range run.preds {
		if p != nil {
			p.graphs = run.graphs
		}
	}
	workers := make([]*worker, locals)
	for i := range workers {
		workers[i] = run.newWorker(lead+i, init)
	}
	if err := parallel.RunLocals(ctx, coll, func(ctx context.Context, rank int) error { return workers[rank-lead].loop(ctx) }); err != nil {
		return nil, err
	}
	if cfg.KeepNetwork == KeepShrunk {
		shrunk, _, err := Shrink(run.final, m)
		return shrunk, err
	}
	return run.final, nil
}

// Untrained returns the untrained network of cfg for m, epoch 0 of
// training: anchored, it forecasts what its anchor forecasts (anchored to
// the last value, the last value plus the highway's least-squares
// autoregression on differences: the ar_diff baseline, or persistence
// without a highway).
func Untrained(cfg Config, m series.Matrix) (*Model, error) {
	fit, val, _, err := cfg.Samples(m)
	if err != nil {
		return nil, err
	}
	anchor, err := startAnchor(cfg, m, fit, val, Start{})
	if err != nil {
		return nil, err
	}
	net, err := initialNet(cfg, m, fit, anchor, Start{})
	if err != nil {
		return nil, err
	}
	return newModel(cfg, m, net, anchor, 0), nil
}

// startAnchor is the anchor of a run: the resumed model's, or fitted on
// the fitting samples (nil for a network that is not anchored).
func startAnchor(cfg Config, m series.Matrix, fit, val []int, start Start) (*Anchor, error) {
	switch {
	case !cfg.anchored():
		return nil, nil
	case start.Model != nil:
		return start.Model.Anchor, nil
	case start.Anchor != nil:
		return start.Anchor, nil
	}
	return fitAnchor(cfg, m, fit, val)
}

// initialNet is the network training starts from: start's weights, or new
// ones whose highway is the least-squares fit on the fitting samples.
func initialNet(cfg Config, m series.Matrix, fit []int, anchor *Anchor, start Start) (*Net, error) {
	init := newNet(cfg, rand.New(rand.NewPCG(cfg.Seed, 0)))
	if start.Model != nil {
		from, err := start.Model.net()
		if err != nil {
			return nil, err
		}
		if !sameShapes(init, from) {
			return nil, fmt.Errorf("gat: the model to resume has another architecture than window %d, hidden %v, heads %d, highway %d",
				cfg.Window, cfg.Hidden, cfg.Heads, cfg.Highway)
		}
		init.copyWeights(from)
		return init, nil
	}
	if cfg.Highway > 0 && (anchor == nil || anchor.Kind == AnchorLastValue) {
		intercept, weights, err := highwayFit(cfg, m, fit)
		if err != nil {
			return nil, fmt.Errorf("gat: fit the highway: %w", err)
		}
		w := init.highway.W.RawRowView(0)
		copy(w, weights)
		w[cfg.Highway] = intercept
		directHighway(cfg, m, fit, init)
	}
	return init, nil
}

// highwayFit is the least-squares autoregression of the highway's lags:
// on differences (baseline ar_diff) when anchored, on values (ols) else.
func highwayFit(cfg Config, m series.Matrix, fit []int) (float64, []float64, error) {
	if cfg.anchored() {
		a, err := baseline.FitARDiff(m, cfg.Highway, fit)
		if err != nil {
			return 0, nil, err
		}
		return a.Intercept, a.Weights, nil
	}
	o, err := baseline.FitOLS(m, cfg.Highway, fit)
	if err != nil {
		return 0, nil, err
	}
	return o.Intercept, o.Weights, nil
}

// training is the state the workers of one run share.
type training struct {
	cfg              Config
	m                series.Matrix
	train, val, test []int
	coll             parallel.Collective
	lead             int       // the lowest rank in this process, which keeps the model
	locals           int       // the workers in this process
	shard            *sharding // nil: every process holds every row
	start            time.Time
	report           func(Epoch) error
	first            int // the number of the first epoch to run
	setup            time.Duration
	final            *Model // the lead's result when training ends
	anchor           *Anchor
	anchorFit        baseline.Forecaster // nil: the last value
	pre              []float64           // anchorFit's forecasts of rows Span().. of m
	graphs           *graphCache         // the samples' graphs, shared by the workers
	preds            [2]*predictions     // the workers' cur and kept; nil past the bound or across processes
	// origins are the validation origins of a horizon above 1 (nil at 1).
	origins []int
	// gate and gateH are KeepOneSEHorizons' origins and steps (see
	// gateOrigins); nil and 0 without.
	gate  []int
	gateH int
	// fitting are the samples the epochs train on: train, less those
	// whose later steps are not fitting rows for a direct or multi-output
	// network (see multiFitting); preSteps are the anchor's forecasts of
	// every step it predicts (see anchorSteps), nil for a recursive one.
	fitting  []int
	preSteps []float64
}

// worker is one data-parallel worker with its own replica and optimiser.
type worker struct {
	*training
	rank int
	net  *Net
	opt  nn.Optimizer
	buf  []float64
	dy   *mat.Dense // a sample's loss gradient, reused
	s    sampler
	// cur holds the predictions of the last evaluation, kept those of the
	// kept epoch's; nil when the run keeps none. Every worker swaps them
	// at the same epochs, so all hold the same two buffers, each worker
	// writing the rows of its share.
	cur, kept *predictions
	// own are the fitting, validation and test samples of the worker's
	// process: every one, or in a sharded run those the process owns; held
	// is the process's samples of the mini-batch in a sharded run.
	own  [3][]int
	held []int
	ms   *multiStep // the recursive validation's buffers; nil until used
	// first0 and cells are the first network's and the current one's
	// squared errors on the worker's validation cells (see beatsFirst).
	first0, cells []float64
	// gateFirst and gateNow are the same on the gate origins (see
	// gateCells).
	gateFirst, gateNow []float64
}

func (r *training) newWorker(rank int, init *Net) *worker {
	net := newNet(r.cfg, rand.New(rand.NewPCG(r.cfg.Seed, 0)))
	net.copyWeights(init)
	var opt nn.Optimizer = nn.NewSGD(r.cfg.LR, r.cfg.Momentum)
	if r.cfg.Optimizer == "adam" {
		opt = nn.NewAdam(r.cfg.LR)
	}
	w := &worker{training: r, rank: rank, net: net, opt: opt, s: newSampler(r.m, r.cfg, r.anchorFit, r.pre, r.cfg.Span())}
	w.s.graphs = r.graphs
	w.s.preSteps = r.preSteps
	w.cur, w.kept = r.preds[0], r.preds[1]
	w.own = [3][]int{r.train, r.val, r.test}
	if r.shard != nil {
		for i, samples := range w.own {
			w.own[i] = r.shard.own(nil, samples)
		}
	}
	return w
}

// loop runs every epoch on this worker. The network before the first
// epoch is scored too: with validation it is kept unless an epoch beats it.
func (w *worker) loop(ctx context.Context) error {
	e, err := w.evaluate(ctx, w.first-1)
	if err != nil {
		return err
	}
	best, since := w.score(e), 0
	low := best // the lowest score yet, which patience counts from
	kept := w.keep(nil, e.Epoch)
	w.keepFirst()
	last := w.cur // the predictions of the last evaluation
	w.cur, w.kept = w.kept, w.cur
	if w.rank == w.lead {
		w.setup = time.Since(w.start)
	}
	for epoch := w.first; epoch <= w.cfg.Epochs; epoch++ {
		order := shuffled(w.fitting, w.cfg.Seed, epoch)
		for from := 0; from < len(order); from += w.cfg.BatchSize {
			if err := w.step(ctx, order[from:min(from+w.cfg.BatchSize, len(order))]); err != nil {
				return err
			}
		}
		if e, err = w.evaluate(ctx, epoch); err != nil {
			return err
		}
		last = w.cur
		if since++; w.score(e) < low {
			low, since = w.score(e), 0
		}
		if e.Best = w.score(e) < best; e.Best {
			if e.Best, err = w.beatsFirst(ctx); err != nil {
				return err
			}
		}
		if e.Best {
			best, kept = w.score(e), w.keep(kept, epoch)
			w.cur, w.kept = w.kept, w.cur
		}
		if w.rank == 0 && w.report != nil {
			e.Setup = w.setup
			e.Snapshot = func() *Model { return newModel(w.cfg, w.m, w.net, w.anchor, epoch) }
			if err := w.report(e); err != nil {
				return err
			}
		}
		if w.cfg.Patience > 0 && since >= w.cfg.Patience {
			break
		}
	}
	if w.rank == w.lead {
		w.final = newModel(w.cfg, w.m, w.net, w.anchor, e.Epoch)
		w.final.predicted = last
		if len(w.val) > 0 {
			w.final = kept
			w.final.predicted = w.kept
		}
		w.final.score, w.final.scored = best, true
	}
	return nil
}

// score is what selects the best epoch: validation MSE, or training MSE
// without validation.
func (w *worker) score(e Epoch) float64 {
	if len(w.val) > 0 {
		return e.ValMSE
	}
	return e.TrainMSE
}

// keep returns a copy of the lead's network after epoch, with validation;
// else (and on other ranks) it returns old.
func (w *worker) keep(old *Model, epoch int) *Model {
	if w.rank != w.lead || len(w.val) == 0 {
		return old
	}
	return newModel(w.cfg, w.m, w.net, w.anchor, epoch)
}

// share is this worker's contiguous part of samples; in a sharded run its
// contiguous part of the samples its process owns (see Shard).
func (w *worker) share(samples []int) []int {
	if w.shard != nil {
		w.held = w.shard.own(w.held[:0], samples)
		samples = w.held
	}
	return w.part(samples)
}

// shareOf is this worker's contiguous part of its process's fitting (0),
// validation (1) or test (2) samples.
func (w *worker) shareOf(k int) []int { return w.part(w.own[k]) }

// part is the worker's contiguous part of samples of its process's: of
// every worker's, or in a sharded run of its process's workers'.
func (w *worker) part(samples []int) []int {
	i, n := w.rank, w.coll.Size()
	if w.shard != nil {
		i, n = w.rank-w.lead, w.locals
	}
	return samples[i*len(samples)/n : (i+1)*len(samples)/n]
}

// step trains on one mini-batch: gradients of the summed squared error on
// this worker's share, summed over workers, divided by the batch's cells,
// their global norm clipped at cfg.Clip.
func (w *worker) step(ctx context.Context, batch []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, p := range w.net.Params() {
		p.ZeroGrad()
	}
	h := w.cfg.steps()
	if w.dy == nil {
		w.dy = mat.NewDense(w.m.N, w.cfg.outputs(), nil)
	}
	for _, t := range w.share(batch) {
		dy := w.dy
		if h > 1 {
			w.s.backwardSteps(w.net, t, dy)
			continue
		}
		pred, target := w.s.predict(w.net, t)
		for i := range w.m.N {
			dy.Set(i, 0, 2*(pred.At(i, 0)-target[i]))
		}
		w.net.backward(dy)
	}
	w.buf = w.net.flatGrads(w.buf[:0])
	if err := w.coll.AllReduceSum(ctx, w.rank, w.buf); err != nil {
		return err
	}
	w.net.setGrads(w.buf, 1/float64(len(batch)*w.m.N*h))
	if w.cfg.Clip > 0 {
		nn.ClipGradNorm(w.net.Params(), w.cfg.Clip)
	}
	w.opt.Step(w.net.Params())
	return nil
}

// evaluate computes the epoch's fitting, validation and test MSE across
// the workers. With a horizon above 1 the validation MSE is the recursive
// one's (see multiSSE), computed once every worker has its one-step
// predictions, which it reuses.
func (w *worker) evaluate(ctx context.Context, epoch int) (Epoch, error) {
	sums := []float64{w.s.sse(w.net, w.shareOf(0), w.cur), w.s.sse(w.net, w.shareOf(1), w.cur), w.s.sse(w.net, w.shareOf(2), w.cur)}
	if err := w.coll.AllReduceSum(ctx, w.rank, sums); err != nil {
		return Epoch{}, err
	}
	cells := func(samples []int) float64 { return float64(len(samples) * w.m.N) }
	e := Epoch{Epoch: epoch, TrainMSE: sums[0] / cells(w.train), ValMSE: sums[1] / cells(w.val),
		TestMSE: sums[2] / cells(w.test), Elapsed: time.Since(w.start)}
	if len(w.origins) == 0 {
		return e, nil
	}
	var multi []float64
	if w.cfg.steps() > 1 {
		multi = []float64{w.s.stepsSSE(w.net, w.part(w.origins))}
	} else {
		multi = []float64{w.multiSSE(w.part(w.origins))}
	}
	if err := w.coll.AllReduceSum(ctx, w.rank, multi); err != nil {
		return Epoch{}, err
	}
	e.ValMSE = multi[0] / float64(len(w.origins)*w.m.N*w.cfg.horizon())
	e.Elapsed = time.Since(w.start)
	return e, nil
}

// shuffled is samples in the order of epoch: the same on every worker and run.
func shuffled(samples []int, seed uint64, epoch int) []int {
	out := append([]int(nil), samples...)
	rng := rand.New(rand.NewPCG(seed, uint64(epoch)))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// Validate reports the first option out of range.
func (c Config) Validate() error {
	switch {
	case c.Window < 1:
		return fmt.Errorf("window %d must be at least 1", c.Window)
	case c.Heads < 1:
		return fmt.Errorf("heads %d must be at least 1", c.Heads)
	case c.Epochs < 1:
		return fmt.Errorf("epochs %d must be at least 1", c.Epochs)
	case c.BatchSize < 1:
		return fmt.Errorf("batch_size %d must be at least 1", c.BatchSize)
	case c.Workers < 1:
		return fmt.Errorf("workers %d must be at least 1", c.Workers)
	case c.Target != "change" && c.Target != "level":
		return fmt.Errorf("target %q must be 'change' or 'level'", c.Target)
	case c.Highway < 0:
		return fmt.Errorf("highway %d must be at least 0", c.Highway)
	case c.Clip < 0:
		return fmt.Errorf("clip %v must be at least 0", c.Clip)
	case c.Horizon < 0:
		return fmt.Errorf("horizon %d must be at least 1", c.Horizon)
	case c.Strategy != "" && !slices.Contains(Strategies(), c.Strategy):
		return fmt.Errorf("strategy %q must be one of %v", c.Strategy, Strategies())
	case c.KeepNetwork != "" && !slices.Contains(KeepRules(), c.KeepNetwork):
		return fmt.Errorf("keep_network %q must be one of %v", c.KeepNetwork, KeepRules())
	case c.KeepNetwork == KeepShrunk && (!c.anchored() || c.ValidationFraction == 0):
		return errors.New("keep_network 'shrunk' shrinks toward the anchor on validation: target must be 'change' and validation_fraction above 0")
	case c.ValidationFraction < 0 || c.ValidationFraction >= 1:
		return fmt.Errorf("validation_fraction %v must be in [0, 1)", c.ValidationFraction)
	case c.anchored() && c.Anchor != "" && c.Anchor != AnchorAuto && !slices.Contains(AnchorKinds(), c.Anchor):
		return fmt.Errorf("anchor %q must be 'auto' or one of %v", c.Anchor, AnchorKinds())
	case c.CombineFixed != "" && !slices.Contains(FixedCombinations(), c.CombineFixed):
		return fmt.Errorf("combine_fixed %q must be empty or one of %v", c.CombineFixed, FixedCombinations())
	case c.AnchorOrigins != "" && !slices.Contains(AnchorOriginRules(), c.AnchorOrigins):
		return fmt.Errorf("anchor_origins %q must be one of %v", c.AnchorOrigins, AnchorOriginRules())
	case c.Ladder != "" && !slices.Contains(LadderRules(), c.Ladder):
		return fmt.Errorf("ladder %q must be one of %v", c.Ladder, LadderRules())
	case c.Ladder == LadderWithoutARIMA && c.anchored() && NeedsARIMA(c.Anchor):
		return fmt.Errorf("ladder 'without_arima' leaves arima out, but anchor %q fits it", c.Anchor)
	case c.anchored() && c.Anchor == AnchorAuto && c.ValidationFraction == 0:
		return errors.New("anchor 'auto' is chosen on validation: validation_fraction must be above 0")
	}
	return nil
}
