package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
)

// The study's protocol. The test split (targets from row floor(0.7*T) on)
// is never read while choosing: candidates are trained on the training
// period alone, a matrix cut off at the split, whose own chronological
// split at accValFraction leaves its last targets (about a fifth) for
// validation. The scaler's statistics come from the training period of the
// full series, so validation and test see the same values.
const (
	accTrainFraction = 0.7
	accValFraction   = 0.8
	accMaxEpochs     = 500
	// accDiverged is the training MSE above which a run is stopped as
	// diverged. The rescaled training values have variance about 1, so a
	// model a hundred times worse than predicting zero has left the data
	// behind, and the study spends no more epochs on it.
	accDiverged = 100.0
)

// errDiverged stops a run whose training MSE passed accDiverged or stopped
// being finite.
var errDiverged = errors.New("training diverged")

// accCheckpoints are the epochs at which every run is scored. A run of
// accMaxEpochs passes through the state a shorter run ends in, because
// neither the shuffling nor the optimiser depends on the number of epochs,
// so one run scores every candidate number of epochs.
func accCheckpoints() []int { return []int{50, 100, 200, 300, 500} }

// defaultCheckpoint is the checkpoint at DefaultConfig's number of epochs,
// the published figure.
func defaultCheckpoint() int { return slices.Index(accCheckpoints(), gat.DefaultConfig().Epochs) }

// candidate is one configuration of the study; cfg.Epochs is ignored.
type candidate struct {
	phase  int
	factor string
	cfg    gat.Config
}

// curve is one run's MSE on the training samples and on the held-out ones
// (validation or test) after each checkpoint; checkpoints after a
// divergence are NaN, and diverged is the epoch it was stopped at.
type curve struct {
	train, held []float64
	diverged    int
}

// scored is a candidate with its runs, one per seed, and the checkpoint
// whose mean held-out MSE over the seeds is lowest.
type scored struct {
	candidate
	runs []curve
	best int
}

// accStudy holds the data of one `bench accuracy` run and counts its
// training runs for the progress lines.
type accStudy struct {
	names []string
	start int           // row 0's month, year*12 + month-1
	full  series.Matrix // rescaled, every row
	val   series.Matrix // rescaled, the training period only
	seeds int
	log   io.Writer

	mu      sync.Mutex
	trained int
}

// runAccuracy runs the hyperparameter study of the GAT forecaster on the
// unemployment data and prints its tables to o.Out, progress to stderr.
func runAccuracy(ctx context.Context, o options) error {
	start := time.Now()
	if o.Seeds < 1 {
		return fmt.Errorf("-seeds %d must be at least 1", o.Seeds)
	}
	raw, names, month0, err := loadUnemployment(o.Unemployment)
	if err != nil {
		return err
	}
	s, err := newAccStudy(raw, names, month0, o.Seeds)
	if err != nil {
		return err
	}
	first, err := s.sweep(ctx, phaseOne())
	if err != nil {
		return err
	}
	second, err := s.sweep(ctx, followUps(first))
	if err != nil {
		return err
	}
	all := append(first, second...)
	t, err := s.test(ctx, all)
	if err != nil {
		return err
	}
	out := o.Out
	s.printSetup(out)
	s.printValidation(out, all, t)
	s.printTest(out, t)
	s.printDiagnostics(out, t)
	fmt.Fprintf(s.log, "%d training runs, %.0fs with %d at a time\n", s.trained, time.Since(start).Seconds(), runtime.GOMAXPROCS(0))
	return nil
}

// newAccStudy rescales raw with signed_log_zscore on statistics of the
// training period and cuts the validation matrix out of it.
func newAccStudy(raw series.Matrix, names []string, start, seeds int) (*accStudy, error) {
	train, _, err := series.Split(raw, gat.DefaultConfig().Window, accTrainFraction)
	if err != nil {
		return nil, err
	}
	rows := train[len(train)-1] + 1
	full := rescaleSignedLogZ(raw, rows)
	val := series.Matrix{T: rows, N: full.N, Values: full.Values[: rows*full.N : rows*full.N]}
	return &accStudy{names: names, start: start, full: full, val: val, seeds: seeds, log: os.Stderr}, nil
}

// loadUnemployment reads the CSV (series, year, month, count, rate) as a
// months x industries matrix of counts; industries are sorted by name.
// start is the first month, year*12 + month-1.
func loadUnemployment(path string) (m series.Matrix, names []string, start int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: %w", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return series.Matrix{}, nil, 0, fmt.Errorf("read unemployment data: %w", err)
	}
	type cell struct {
		name  string
		month int
		count float64
	}
	var cells []cell
	var months []int
	for _, r := range recs[min(1, len(recs)):] {
		if len(r) < 4 {
			return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: bad row %q", r)
		}
		y, e1 := strconv.Atoi(r[1])
		mo, e2 := strconv.Atoi(r[2])
		v, e3 := strconv.ParseFloat(r[3], 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: bad row %q", r)
		}
		cells = append(cells, cell{r[0], y*12 + mo - 1, v})
		names, months = append(names, r[0]), append(months, y*12+mo-1)
	}
	slices.Sort(names)
	slices.Sort(months)
	names, months = slices.Compact(names), slices.Compact(months)
	if len(months) == 0 || len(cells) != len(months)*len(names) {
		return series.Matrix{}, nil, 0, fmt.Errorf("unemployment data: %d counts for %d industries x %d months", len(cells), len(names), len(months))
	}
	m = series.Matrix{T: len(months), N: len(names), Values: make([]float64, len(months)*len(names))}
	for _, c := range cells {
		t, _ := slices.BinarySearch(months, c.month)
		n, _ := slices.BinarySearch(names, c.name)
		m.Values[t*m.N+n] = c.count
	}
	return m, names, months[0], nil
}

// rescaleSignedLogZ is signed_log_zscore with global statistics of the
// first rows rows, accumulated in row-major order as mlops/gat's test does,
// so seed for seed the default configuration reproduces its numbers.
func rescaleSignedLogZ(m series.Matrix, rows int) series.Matrix {
	var mom scale.Moments
	for _, v := range m.Values[:rows*m.N] {
		mom.Add(scale.SignedLog(v))
	}
	out := series.Matrix{T: m.T, N: m.N, Values: make([]float64, len(m.Values))}
	for i, v := range m.Values {
		out.Values[i] = (scale.SignedLog(v) - mom.Mean) / mom.Std()
	}
	return out
}

// phaseOne is the one-factor-at-a-time sweep around the default: each
// candidate changes one option of DefaultConfig. Epochs are the fifth
// factor, scored at every checkpoint of every run.
func phaseOne() []candidate {
	c := func(factor string, set func(*gat.Config)) candidate {
		cfg := gat.DefaultConfig()
		set(&cfg)
		return candidate{phase: 1, factor: factor, cfg: cfg}
	}
	lr := func(opt string, v float64) func(*gat.Config) {
		return func(cfg *gat.Config) { cfg.Optimizer, cfg.LR = opt, v }
	}
	return []candidate{
		c("default", func(*gat.Config) {}),
		c("learning rate", lr("sgd", 0.001)),
		c("learning rate", lr("sgd", 0.01)),
		c("learning rate", lr("sgd", 0.05)),
		c("learning rate", lr("adam", 0.001)),
		c("learning rate", lr("adam", 0.005)),
		c("heads", func(cfg *gat.Config) { cfg.Heads = 2 }),
		c("heads", func(cfg *gat.Config) { cfg.Heads = 4 }),
		c("neighbors", func(cfg *gat.Config) { cfg.Neighbors = 3 }),
		c("neighbors", func(cfg *gat.Config) { cfg.Neighbors = 6 }),
		c("window", func(cfg *gat.Config) { cfg.Window = 8 }),
	}
}

// followUps is the second phase, decided from the first phase's validation
// scores alone: the combination of every factor's best level that beat the
// default, and the best candidate's learning rate halved and doubled.
// Configurations already tried are left out.
func followUps(first []scored) []candidate {
	def := first[0].score(first[0].best)
	combined, wins := gat.DefaultConfig(), 0
	for _, factor := range []string{"learning rate", "heads", "neighbors", "window"} {
		var win *scored
		for i, c := range first {
			if c.factor == factor && c.score(c.best) < def && (win == nil || c.score(c.best) < win.score(win.best)) {
				win = &first[i]
			}
		}
		if win == nil {
			continue
		}
		wins++
		switch factor {
		case "learning rate":
			combined.Optimizer, combined.LR = win.cfg.Optimizer, win.cfg.LR
		case "heads":
			combined.Heads = win.cfg.Heads
		case "neighbors":
			combined.Neighbors = win.cfg.Neighbors
		case "window":
			combined.Window = win.cfg.Window
		}
	}
	var out []candidate
	tried := func(cfg gat.Config) bool {
		return slices.ContainsFunc(first, func(c scored) bool { return describe(c.cfg) == describe(cfg) }) ||
			slices.ContainsFunc(out, func(c candidate) bool { return describe(c.cfg) == describe(cfg) })
	}
	if wins > 1 {
		out = append(out, candidate{phase: 2, factor: "combined winners", cfg: combined})
	}
	if ranked := rank(first); len(ranked) > 0 {
		for _, f := range []float64{0.5, 2} {
			cfg := ranked[0].cfg
			cfg.LR *= f
			if !tried(cfg) {
				out = append(out, candidate{phase: 2, factor: "learning rate around best", cfg: cfg})
			}
		}
	}
	return out
}

// describe names a configuration by the options the study varies, as they
// differ from the default.
func describe(cfg gat.Config) string {
	def := gat.DefaultConfig()
	var parts []string
	if cfg.Optimizer != def.Optimizer || cfg.LR != def.LR {
		parts = append(parts, fmt.Sprintf("%s lr %g", cfg.Optimizer, cfg.LR))
	}
	if cfg.Heads != def.Heads {
		parts = append(parts, fmt.Sprintf("heads %d", cfg.Heads))
	}
	if cfg.Neighbors != def.Neighbors {
		parts = append(parts, fmt.Sprintf("neighbors %d", cfg.Neighbors))
	}
	if cfg.Window != def.Window {
		parts = append(parts, fmt.Sprintf("window %d", cfg.Window))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("default (%s lr %g, heads %d, full graph, window %d)", def.Optimizer, def.LR, def.Heads, def.Window)
	}
	return strings.Join(parts, ", ")
}

// rank is the candidates without a diverged seed, by the mean validation
// MSE of their best checkpoint; the earlier candidate wins a tie.
func rank(all []scored) []scored {
	var out []scored
	for _, c := range all {
		if !math.IsInf(c.score(c.best), 1) {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b scored) int { return cmp.Compare(a.score(a.best), b.score(b.best)) })
	return out
}

// sweep trains every candidate on the validation matrix for every seed,
// accMaxEpochs each.
func (s *accStudy) sweep(ctx context.Context, cands []candidate) ([]scored, error) {
	out := make([]scored, len(cands))
	for i, c := range cands {
		out[i] = scored{candidate: c, runs: make([]curve, s.seeds)}
	}
	err := parallelRuns(ctx, len(cands)*s.seeds, func(ctx context.Context, job int) error {
		c, seed := &out[job/s.seeds], job%s.seeds
		cv, err := s.trainCurve(ctx, c.candidate, seed, accMaxEpochs, accValFraction, s.val)
		c.runs[seed] = cv
		return err
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].best = out[i].bestCheckpoint()
	}
	return out, nil
}

// trainCurve trains c for seed on the split of m at fraction, for epochs
// epochs, and scores it after every checkpoint it reaches.
func (s *accStudy) trainCurve(ctx context.Context, c candidate, seed, epochs int, fraction float64, m series.Matrix) (curve, error) {
	cfg := c.cfg
	cfg.Epochs, cfg.TrainFraction, cfg.Seed = epochs, fraction, uint64(seed)
	cps := accCheckpoints()
	cv := curve{train: filled(len(cps), math.NaN()), held: filled(len(cps), math.NaN())}
	start := time.Now()
	_, err := gat.Train(ctx, cfg, m, func(e gat.Epoch) error {
		if !(e.TrainMSE <= accDiverged) {
			cv.diverged = e.Epoch
			return errDiverged
		}
		if k := slices.Index(cps, e.Epoch); k >= 0 {
			cv.train[k], cv.held[k] = e.TrainMSE, e.TestMSE
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDiverged) {
		return cv, fmt.Errorf("train %s seed %d: %w", describe(c.cfg), seed, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trained++
	status := fmt.Sprintf("held-out MSE %.4f at %d epochs", cv.held[lastReached(cv)], cps[lastReached(cv)])
	if cv.diverged > 0 {
		status = fmt.Sprintf("diverged at epoch %d", cv.diverged)
	}
	fmt.Fprintf(s.log, "[%3d] %-7s  %-32s seed %d  %s  (%.1fs)\n", s.trained, pick(c.phase == 0, "test", fmt.Sprintf("phase %d", c.phase)), describe(c.cfg), seed,
		status, time.Since(start).Seconds())
	return cv, nil
}

// parallelRuns calls run for jobs 0..n-1 on GOMAXPROCS goroutines. Each
// run trains with one worker and writes only its own results, so the
// results do not depend on the scheduling. The first error cancels the
// rest and is returned.
func parallelRuns(ctx context.Context, n int, run func(ctx context.Context, job int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for job := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if err := run(ctx, job); err != nil {
					cancel(err)
				}
			}
		})
	}
feed:
	for job := range n {
		select {
		case jobs <- job:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return context.Cause(ctx)
}

// tested is the final stage: the default and the chosen candidate retrained
// on the full training split and scored on the test split, for every seed.
// Candidates ranked above the chosen one that diverged while retraining
// are listed in rejected.
type tested struct {
	def, chosen       scored
	defRuns, pickRuns []curve
	rejected          []scored
	rejectedRuns      map[string][]curve // by describe
}

// test retrains the default for accMaxEpochs, so that its test curve can
// be shown (its published figure is the checkpoint at DefaultConfig's
// Epochs), and the ranked candidates for their best number of epochs until
// one trains without diverging on any seed. Whether a retraining diverged
// is read from its training MSE alone.
func (s *accStudy) test(ctx context.Context, all []scored) (tested, error) {
	ranked := rank(all)
	if len(ranked) == 0 {
		return tested{}, errors.New("every candidate diverged on validation")
	}
	t := tested{def: all[0], rejectedRuns: map[string][]curve{}}
	var err error
	if t.defRuns, err = s.retrain(ctx, all[0].candidate, accMaxEpochs); err != nil {
		return t, err
	}
	for _, c := range ranked {
		epochs, runs := accCheckpoints()[c.best], t.defRuns
		if describe(c.cfg) != describe(all[0].cfg) {
			if runs, err = s.retrain(ctx, c.candidate, epochs); err != nil {
				return t, err
			}
		}
		if !slices.ContainsFunc(runs, func(r curve) bool { return r.diverged > 0 && r.diverged <= epochs }) {
			t.chosen, t.pickRuns = c, runs
			return t, nil
		}
		t.rejected = append(t.rejected, c)
		t.rejectedRuns[describe(c.cfg)] = runs
	}
	return t, errors.New("every candidate diverged when retrained on the full training split")
}

// retrain trains c on the full training split for every seed.
func (s *accStudy) retrain(ctx context.Context, c candidate, epochs int) ([]curve, error) {
	runs := make([]curve, s.seeds)
	c.phase = 0
	err := parallelRuns(ctx, s.seeds, func(ctx context.Context, seed int) error {
		var err error
		runs[seed], err = s.trainCurve(ctx, c, seed, epochs, accTrainFraction, s.full)
		return err
	})
	return runs, err
}

// baselines scores OLS, constant and last value, fitted on the training
// samples of m's chronological split at fraction, on the training and the
// held-out samples.
func baselines(m series.Matrix, window int, fraction float64) (map[baseline.Kind][2]float64, error) {
	train, held, err := series.Split(m, window, fraction)
	if err != nil {
		return nil, err
	}
	out := map[baseline.Kind][2]float64{}
	for _, kind := range []baseline.Kind{baseline.KindOLS, baseline.KindConstant, baseline.KindLastValue} {
		b, err := baseline.Fit(kind, m, window, train)
		if err != nil {
			return nil, fmt.Errorf("fit baseline %s: %w", kind, err)
		}
		out[kind] = [2]float64{baseline.MSE(b, m, train), baseline.MSE(b, m, held)}
	}
	return out, nil
}

// score is the mean held-out MSE over the seeds at checkpoint k, +Inf if
// any seed diverged: a configuration that fails on one seed is not chosen
// at any number of epochs.
func (c scored) score(k int) float64 {
	xs := c.at(k, false)
	if slices.ContainsFunc(c.runs, func(r curve) bool { return r.diverged > 0 }) ||
		slices.ContainsFunc(xs, func(x float64) bool { return math.IsNaN(x) }) {
		return math.Inf(1)
	}
	return meanOf(xs)
}

// at is every seed's MSE at checkpoint k, training or held-out.
func (c scored) at(k int, train bool) []float64 { return column(c.runs, k, train) }

// bestCheckpoint is the checkpoint with the lowest score; the earlier wins
// a tie.
func (c scored) bestCheckpoint() int {
	best := 0
	for k := range accCheckpoints() {
		if c.score(k) < c.score(best) {
			best = k
		}
	}
	return best
}

// diverged lists the seeds that diverged and the epochs they did it at.
func diverged(runs []curve) string {
	var parts []string
	for seed, r := range runs {
		if r.diverged > 0 {
			parts = append(parts, fmt.Sprintf("seed %d at %d", seed, r.diverged))
		}
	}
	return strings.Join(parts, ", ")
}

// column is every run's MSE at checkpoint k.
func column(runs []curve, k int, train bool) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = pick(train, r.train[k], r.held[k])
	}
	return out
}

// lastReached is the index of the last checkpoint a run reached.
func lastReached(c curve) int {
	k := len(c.held) - 1
	for k > 0 && math.IsNaN(c.held[k]) {
		k--
	}
	return k
}

// pick returns a if cond holds, b otherwise.
func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}

// filled is n copies of v.
func filled(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func meanOf(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// sdOf is the sample standard deviation, 0 for fewer than two values.
func sdOf(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	mu, ss := meanOf(xs), 0.0
	for _, x := range xs {
		ss += (x - mu) * (x - mu)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// printSetup describes the data and the splits.
func (s *accStudy) printSetup(out io.Writer) {
	fit, val, _ := series.Split(s.val, 4, accValFraction)
	_, test, _ := series.Split(s.full, 4, accTrainFraction)
	fmt.Fprintf(out, "## GAT accuracy study: unemployment, %d industries x %d months, seeds 0..%d\n\n", s.full.N, s.full.T, s.seeds-1)
	fmt.Fprintf(out, "- Rescaled with signed_log_zscore, global statistics of rows 0..%d (the training period); window 4 unless stated.\n", s.val.T-1)
	span := func(rows []int) string {
		return fmt.Sprintf("targets %d..%d (%s to %s)", rows[0], rows[len(rows)-1], s.month(rows[0]), s.month(rows[len(rows)-1]))
	}
	fmt.Fprintf(out, "- Choosing: train on %s, validate on %s, %d of %d; the test %s are never read.\n",
		span(fit), span(val), len(val), len(fit)+len(val), span(test))
	fmt.Fprintf(out, "- Testing: retrain on %s (train_fraction %.1f of the full matrix), score %s.\n",
		span(append(fit, val...)), accTrainFraction, span(test))
	fmt.Fprintf(out, "- A run whose training MSE passes %g is stopped as diverged; a configuration with a diverged seed is not chosen.\n\n", accDiverged)
}

// month is row t's month as yyyy-mm.
func (s *accStudy) month(t int) string {
	return fmt.Sprintf("%d-%02d", (s.start+t)/12, (s.start+t)%12+1)
}

// printValidation prints the baselines' and every candidate's validation
// MSE, mean ± sample sd over the seeds at each checkpoint.
func (s *accStudy) printValidation(out io.Writer, all []scored, t tested) {
	fmt.Fprintln(out, "### Validation MSE of the baselines\n\n| window | ols | constant | last_value |\n|---|---|---|---|")
	for _, w := range []int{4, 8} {
		if b, err := baselines(s.val, w, accValFraction); err == nil {
			fmt.Fprintf(out, "| %d | %.4f | %.4f | %.4f |\n", w, b[baseline.KindOLS][1], b[baseline.KindConstant][1], b[baseline.KindLastValue][1])
		}
	}
	cps := accCheckpoints()
	fmt.Fprintf(out, "\n### Validation MSE of the GAT by epochs, mean ± sd over %d seeds\n\n| phase | factor | config |", s.seeds)
	for _, e := range cps {
		fmt.Fprintf(out, " %d |", e)
	}
	fmt.Fprint(out, " best epochs | worst seed at best | train MSE at best | diverged |\n|---|---|---|", strings.Repeat("---|", len(cps)+4), "\n")
	for _, c := range all {
		fmt.Fprintf(out, "| %d | %s | %s |", c.phase, c.factor, describe(c.cfg))
		for k := range cps {
			fmt.Fprintf(out, " %s |", cell(c.at(k, false)))
		}
		if math.IsInf(c.score(c.best), 1) {
			fmt.Fprintf(out, " – | – | – | %s |\n", diverged(c.runs))
			continue
		}
		fmt.Fprintf(out, " %d | %.4f | %s | |\n", cps[c.best], slices.Max(c.at(c.best, false)), cell(c.at(c.best, true)))
	}
	for _, r := range t.rejected {
		fmt.Fprintf(out, "\nRanked above the chosen one but diverged when retrained on the full training split: %s, %d epochs (%s).\n",
			describe(r.cfg), cps[r.best], diverged(t.rejectedRuns[describe(r.cfg)]))
	}
	fmt.Fprintf(out, "\nChosen on validation: **%s, %d epochs**, mean validation MSE %.4f (the default: %.4f at %d epochs, its best %.4f at %d).\n\n",
		describe(t.chosen.cfg), cps[t.chosen.best], t.chosen.score(t.chosen.best), t.def.score(defaultCheckpoint()),
		gat.DefaultConfig().Epochs, t.def.score(t.def.best), cps[t.def.best])
}

// cell is mean ± sd, or a dash when a seed has no value.
func cell(xs []float64) string {
	if slices.ContainsFunc(xs, math.IsNaN) {
		return "–"
	}
	return fmt.Sprintf("%.4f ± %.4f", meanOf(xs), sdOf(xs))
}

// printTest prints the test MSE of the default and the chosen configuration
// next to the baselines, seed by seed, and whether the ordering holds.
func (s *accStudy) printTest(out io.Writer, t tested) {
	cps := accCheckpoints()
	defK := defaultCheckpoint()
	fmt.Fprint(out, "### Test MSE, retrained on the full training split\n\n| method | epochs |")
	for seed := range s.seeds {
		fmt.Fprintf(out, " seed %d |", seed)
	}
	fmt.Fprint(out, " mean | sd |\n|---|---|", strings.Repeat("---|", s.seeds+2), "\n")
	row := func(name string, epochs string, xs []float64) {
		fmt.Fprintf(out, "| %s | %s |", name, epochs)
		for _, x := range xs {
			fmt.Fprintf(out, " %.4f |", x)
		}
		fmt.Fprintf(out, " %.4f | %.4f |\n", meanOf(xs), sdOf(xs))
	}
	defTest, pickTest := column(t.defRuns, defK, false), column(t.pickRuns, t.chosen.best, false)
	row("gat default", strconv.Itoa(cps[defK]), defTest)
	row("gat chosen: "+describe(t.chosen.cfg), strconv.Itoa(cps[t.chosen.best]), pickTest)
	ref := map[int]map[baseline.Kind][2]float64{}
	for _, w := range slices.Compact([]int{4, t.chosen.cfg.Window}) {
		b, err := baselines(s.full, w, accTrainFraction)
		if err != nil {
			fmt.Fprintf(out, "| baselines, window %d | %v |\n", w, err)
			continue
		}
		ref[w] = b
		for _, kind := range []baseline.Kind{baseline.KindOLS, baseline.KindConstant, baseline.KindLastValue} {
			row(fmt.Sprintf("%s (window %d)", kind, w), "", filled(s.seeds, b[kind][1]))
		}
	}
	fmt.Fprintln(out)
	ordering(out, "default", defTest, ref[4])
	ordering(out, "chosen", pickTest, ref[t.chosen.cfg.Window])
	fmt.Fprintln(out)
}

// ordering prints in how many seeds, and on the mean, the GAT's test MSE
// is below OLS's and OLS's below the constant's, and where last value is.
func ordering(out io.Writer, name string, gatTest []float64, b map[baseline.Kind][2]float64) {
	ols, constant, last := b[baseline.KindOLS][1], b[baseline.KindConstant][1], b[baseline.KindLastValue][1]
	fmt.Fprintf(out, "- %s: GAT < OLS in %d of %d seeds (mean %.4f vs %.4f), OLS < constant: %v, so GAT < OLS < constant on the mean %s; GAT < last_value (%.4f) in %d of %d seeds.\n",
		name, countBelow(gatTest, ols), len(gatTest), meanOf(gatTest), ols, ols < constant,
		pick(meanOf(gatTest) < ols && ols < constant, "holds", "does not hold"), last, countBelow(gatTest, last), len(gatTest))
}

// printDiagnostics prints what explains the result: fit against
// generalisation, the default's test MSE by epochs, and the series' memory.
func (s *accStudy) printDiagnostics(out io.Writer, t tested) {
	cps := accCheckpoints()
	defK := defaultCheckpoint()
	fmt.Fprintln(out, "### Diagnostics\n\nTrain and test MSE on the full split (GAT: mean ± sd over seeds):\n\n| method | train MSE | test MSE |\n|---|---|---|")
	fmt.Fprintf(out, "| gat default, %d epochs | %s | %s |\n", cps[defK], cell(column(t.defRuns, defK, true)), cell(column(t.defRuns, defK, false)))
	fmt.Fprintf(out, "| gat chosen, %d epochs | %s | %s |\n", cps[t.chosen.best], cell(column(t.pickRuns, t.chosen.best, true)), cell(column(t.pickRuns, t.chosen.best, false)))
	if b, err := baselines(s.full, 4, accTrainFraction); err == nil {
		for _, kind := range []baseline.Kind{baseline.KindOLS, baseline.KindConstant, baseline.KindLastValue} {
			fmt.Fprintf(out, "| %s | %.4f | %.4f |\n", kind, b[kind][0], b[kind][1])
		}
	}
	fmt.Fprint(out, "\nThe default configuration on the full split by epochs, train / test MSE (shown, not used for choosing):\n\n| seed |")
	for _, e := range cps {
		fmt.Fprintf(out, " %d |", e)
	}
	fmt.Fprint(out, "\n|---|", strings.Repeat("---|", len(cps)), "\n")
	for seed, r := range t.defRuns {
		fmt.Fprintf(out, "| %d |", seed)
		for k := range cps {
			fmt.Fprintf(out, " %.4f / %.4f |", r.train[k], r.held[k])
		}
		fmt.Fprintln(out)
	}
	fmt.Fprint(out, "| **mean** |")
	for k := range cps {
		fmt.Fprintf(out, " %.4f / %.4f |", meanOf(column(t.defRuns, k, true)), meanOf(column(t.defRuns, k, false)))
	}
	fmt.Fprintln(out)
	s.printSeries(out)
}

// printSeries prints each industry's autocorrelations and level shift and
// the OLS fit, which say how close the series is to a random walk.
func (s *accStudy) printSeries(out io.Writer) {
	rows := s.val.T
	fmt.Fprintln(out, "\nThe rescaled series: lag-1 autocorrelation of the level over the training rows and over all rows, of the monthly change and lag-12 of the change over the training rows; the mean level in the training and the test rows; the share of test values above the industry's training maximum:")
	fmt.Fprintln(out, "\n| industry | ac1 level | ac1 level, all rows | ac1 change | ac12 change | mean train | mean test | test > train max |\n|---|---|---|---|---|---|---|---|")
	var sums [7]float64
	for n, name := range s.names {
		level := entity(s.full, n)
		change := diff(level[:rows])
		above := len(level) - rows - countBelow(level[rows:], math.Nextafter(slices.Max(level[:rows]), math.Inf(1)))
		v := [7]float64{autocorr(level[:rows], 1), autocorr(level, 1), autocorr(change, 1), autocorr(change, 12),
			meanOf(level[:rows]), meanOf(level[rows:]), float64(above) / float64(len(level)-rows)}
		fmt.Fprintf(out, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f %% |\n", name, v[0], v[1], v[2], v[3], v[4], v[5], 100*v[6])
		for i := range v {
			sums[i] += v[i] / float64(s.full.N)
		}
	}
	fmt.Fprintf(out, "| **mean** | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f %% |\n", sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], 100*sums[6])
	train, _, _ := series.Split(s.full, 4, accTrainFraction)
	o, err := baseline.FitOLS(s.full, 4, train)
	if err != nil {
		fmt.Fprintf(out, "\nOLS fit: %v\n", err)
		return
	}
	sum := 0.0
	for _, w := range o.Weights {
		sum += w
	}
	fmt.Fprintf(out, "\nOLS on the full training split: intercept %.4f, weights oldest to newest %.4f, sum %.4f, so it reverts towards %.3f.\n",
		o.Intercept, o.Weights, sum, o.Intercept/(1-sum))
}

// entity is entity n's column of m.
func entity(m series.Matrix, n int) []float64 {
	out := make([]float64, m.T)
	for t := range m.T {
		out[t] = m.At(t, n)
	}
	return out
}

func diff(xs []float64) []float64 {
	out := make([]float64, len(xs)-1)
	for i := range out {
		out[i] = xs[i+1] - xs[i]
	}
	return out
}

// autocorr is the sample autocorrelation of xs at lag.
func autocorr(xs []float64, lag int) float64 {
	mu, num, den := meanOf(xs), 0.0, 0.0
	for i, x := range xs {
		den += (x - mu) * (x - mu)
		if i >= lag {
			num += (x - mu) * (xs[i-lag] - mu)
		}
	}
	return num / den
}

// countBelow is how many of xs are below limit.
func countBelow(xs []float64, limit float64) int {
	n := 0
	for _, x := range xs {
		if x < limit {
			n++
		}
	}
	return n
}
