package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// The forecasting study (`bench accuracy`). Candidate defaults of
// train_gat are trained on every data set with seeds 0..seeds-1; each is
// scored on its validation samples (the last ValidationFraction of the
// training rows, which the network is not fitted on), and the default is
// the candidate whose median validation MSE, relative to the best
// baseline's validation MSE on the same data set (baselines fitted on the
// rows before validation), has the lowest geometric mean over the data
// sets. Only then is the test split read: the test table, the 14-step
// table and the interval coverage are reported for the chosen candidate.

// fcData is one data set of the study, rescaled with statistics of its
// training rows.
type fcData struct {
	name   string
	m      series.Matrix
	season int
}

// fcCandidate is one candidate default.
type fcCandidate struct {
	name string
	set  func(cfg *gat.Config, season int)
}

func fcCandidates() []fcCandidate {
	anchored := func(name, anchor string, highway func(season int) int, opt string, lr float64) fcCandidate {
		return fcCandidate{name, func(c *gat.Config, s int) {
			c.Anchor, c.Highway = anchor, highway(s)
			if opt != "" {
				c.Optimizer, c.LR = opt, lr
			}
		}}
	}
	four := func(int) int { return 4 }
	seasonal := func(s int) int { return max(4, s) }
	none := func(int) int { return 0 }
	return []fcCandidate{
		{"level (published)", func(c *gat.Config, _ int) {
			c.Target, c.Highway, c.Clip, c.Anchor = "level", 0, 0, ""
		}},
		anchored("last value, highway 4", gat.AnchorLastValue, four, "", 0),
		anchored("last value, highway max(4, season)", gat.AnchorLastValue, seasonal, "", 0),
		anchored("auto, no highway", gat.AnchorAuto, none, "", 0),
		anchored("auto, highway 4", gat.AnchorAuto, four, "", 0),
		anchored("auto, highway max(4, season)", gat.AnchorAuto, seasonal, "", 0),
		anchored("combination, highway max(4, season)", gat.AnchorCombination, seasonal, "", 0),
		anchored("last value, highway 4, adam 0.001", gat.AnchorLastValue, four, "adam", 0.001),
		anchored("auto, highway 4, adam 0.001", gat.AnchorAuto, four, "adam", 0.001),
	}
}

// fcRun is one trained model's scores.
type fcRun struct {
	val, test float64
	model     *gat.Model
	elapsed   time.Duration
}

func runForecastStudy(ctx context.Context, o options) error {
	out := os.Stdout
	sets, err := fcDataSets(o)
	if err != nil {
		return err
	}
	cands := fcCandidates()
	if o.Candidate != "" {
		cands = slices.DeleteFunc(cands, func(c fcCandidate) bool { return c.name != o.Candidate })
		if len(cands) == 0 {
			return fmt.Errorf("no candidate named %q", o.Candidate)
		}
	}
	runs := make([][][]fcRun, len(cands)) // candidate, data set, seed
	for c, cand := range cands {
		runs[c] = make([][]fcRun, len(sets))
		for d, ds := range sets {
			runs[c][d] = make([]fcRun, o.Seeds)
			err := parallelRuns(ctx, o.Seeds, func(ctx context.Context, seed int) error {
				cfg := fcConfig(cand, ds, seed)
				r, err := fcTrain(ctx, cfg, ds.m)
				runs[c][d][seed] = r
				return err
			})
			if err != nil {
				return fmt.Errorf("%s on %s: %w", cand.name, ds.name, err)
			}
			fmt.Fprintf(os.Stderr, "bench accuracy: %s on %s done\n", cand.name, ds.name)
		}
	}
	base := make([]map[string][2]float64, len(sets))
	for d, ds := range sets {
		if base[d], err = fcBaselines(ds); err != nil {
			return err
		}
	}
	chosen := fcChoose(out, sets, cands, runs, base)
	for d, ds := range sets {
		fcTestTable(out, ds, cands, runs, base[d], chosen, d)
	}
	for d, ds := range sets {
		if err := fcHorizonTable(out, ds, runs[chosen][d], o.Seeds); err != nil {
			return err
		}
	}
	return fcTiming(ctx, out, sets[0])
}

// fcConfig is the default configuration changed by the candidate.
func fcConfig(c fcCandidate, ds fcData, seed int) gat.Config {
	cfg := gat.DefaultConfig()
	cfg.Seed, cfg.Season = uint64(seed), ds.season
	c.set(&cfg, ds.season)
	return cfg
}

func fcTrain(ctx context.Context, cfg gat.Config, m series.Matrix) (fcRun, error) {
	start := time.Now()
	model, err := gat.Train(ctx, cfg, m, nil)
	if err != nil {
		return fcRun{}, err
	}
	elapsed := time.Since(start)
	fit, val, test, err := cfg.Samples(m)
	if err != nil {
		return fcRun{}, err
	}
	if len(val) == 0 { // score a run without validation on the same rows
		val = fit[len(fit)-len(fit)/6:]
	}
	v, err := model.MSE(m, val)
	if err != nil {
		return fcRun{}, err
	}
	t, err := model.MSE(m, test)
	return fcRun{val: v, test: t, model: model, elapsed: elapsed}, err
}

// fcBaselines scores every baseline one step ahead: on validation, fitted
// on the rows before it, and on test, fitted on every training row.
func fcBaselines(ds fcData) (map[string][2]float64, error) {
	cfg := gat.DefaultConfig()
	cfg.Highway, cfg.Season = max(4, ds.season), ds.season
	fit, val, test, err := cfg.Samples(ds.m)
	if err != nil {
		return nil, err
	}
	train := append(slices.Clone(fit), val...)
	out := map[string][2]float64{}
	for _, kind := range baseline.Kinds() {
		opt := baseline.Options{Window: 4, Season: ds.season}
		fv, err1 := baseline.FitForecaster(kind, ds.m, fit, opt)
		ft, err2 := baseline.FitForecaster(kind, ds.m, train, opt)
		if err1 != nil || err2 != nil {
			fmt.Fprintf(os.Stderr, "bench accuracy: %s on %s left out: %v %v\n", kind, ds.name, err1, err2)
			continue
		}
		out[string(kind)] = [2]float64{oneStep(fv, ds.m, val), oneStep(ft, ds.m, test)}
	}
	return out, nil
}

// oneStep is f's one-step MSE over the target rows.
func oneStep(f baseline.Forecaster, m series.Matrix, rows []int) float64 {
	dst := [][]float64{make([]float64, m.N)}
	sum := 0.0
	for _, t := range rows {
		f.Forecast(m, t, dst)
		for i, q := range dst[0] {
			sum += (q - m.At(t, i)) * (q - m.At(t, i))
		}
	}
	return sum / float64(len(rows)*m.N)
}

// bestBaseline returns the baseline with the lowest score at index k (0 validation, 1 test).
func bestBaseline(b map[string][2]float64, k int) (string, float64) {
	name, best := "", math.Inf(1)
	for _, kind := range baseline.Kinds() {
		if v, ok := b[string(kind)]; ok && v[k] < best {
			name, best = string(kind), v[k]
		}
	}
	return name, best
}

func scores(runs []fcRun, test bool) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = r.val
		if test {
			out[i] = r.test
		}
	}
	return out
}

// fcChoose prints the validation table and returns the chosen candidate.
func fcChoose(out io.Writer, sets []fcData, cands []fcCandidate, runs [][][]fcRun, base []map[string][2]float64) int {
	fmt.Fprintf(out, "\n### Choosing the default on validation (median validation MSE / best baseline's)\n\n| candidate |")
	for _, ds := range sets {
		fmt.Fprintf(out, " %s |", ds.name)
	}
	fmt.Fprintf(out, " geometric mean |\n|---|")
	for range sets {
		fmt.Fprintf(out, "---|")
	}
	fmt.Fprintf(out, "---|\n")
	chosen, bestScore := 0, math.Inf(1)
	for c, cand := range cands {
		fmt.Fprintf(out, "| %s |", cand.name)
		logSum := 0.0
		for d := range sets {
			_, b := bestBaseline(base[d], 0)
			r := median(scores(runs[c][d], false)) / b
			logSum += math.Log(r)
			fmt.Fprintf(out, " %.3f |", r)
		}
		g := math.Exp(logSum / float64(len(sets)))
		fmt.Fprintf(out, " %.3f |\n", g)
		if g < bestScore {
			chosen, bestScore = c, g
		}
	}
	fmt.Fprintf(out, "\nChosen on validation: %s.\n", cands[chosen].name)
	return chosen
}

// fcTestTable prints one data set's test figures.
func fcTestTable(out io.Writer, ds fcData, cands []fcCandidate, runs [][][]fcRun, b map[string][2]float64, chosen, d int) {
	fmt.Fprintf(out, "\n### %s (season %d): one-step MSE\n\n| method | validation | test median | test worst seed |\n|---|---|---|---|\n", ds.name, ds.season)
	for c, cand := range cands {
		mark := ""
		if c == chosen {
			mark = " **(default)**"
		}
		v, t := scores(runs[c][d], false), scores(runs[c][d], true)
		fmt.Fprintf(out, "| gat, %s%s | %.4f | %.4f | %.4f |\n", cand.name, mark, median(v), median(t), slices.Max(t))
	}
	for _, kind := range baseline.Kinds() {
		if v, ok := b[string(kind)]; ok {
			fmt.Fprintf(out, "| %s | %.4f | %.4f | |\n", kind, v[0], v[1])
		}
	}
	name, best := bestBaseline(b, 1)
	t := scores(runs[chosen][d], true)
	fmt.Fprintf(out, "\nDefault vs the best baseline on test (%s %.4f): median %.3f, worst seed %.3f.\n", name, best, median(t)/best, slices.Max(t)/best)
}

// fcHorizon is how many steps ahead the horizon table scores.
func fcHorizon(ds fcData) int {
	if ds.season > 1 {
		return 2 * ds.season
	}
	return 12
}

// fcHorizonTable prints MASE by step for the chosen default (median over
// seeds) and the baselines, and the default's interval coverage.
func fcHorizonTable(out io.Writer, ds fcData, runs []fcRun, seeds int) error {
	h := fcHorizon(ds)
	cfg := runs[0].model.Config
	fit, val, test, err := cfg.Samples(ds.m)
	if err != nil {
		return err
	}
	train := append(slices.Clone(fit), val...)
	origins := gat.Origins(test[0], ds.m.T, h)
	scale := baseline.MASEScale(ds.m, test[0], max(1, ds.season))
	mase := map[string][][]float64{} // method, step, seed
	var names []string
	covered, total := make([]float64, h), make([]float64, h)
	for s := range seeds {
		fs, _, err := gat.Methods(runs[s].model, ds.m, train, max(1, ds.season))
		if err != nil {
			return err
		}
		if s > 0 {
			fs = fs[:1]
		}
		for _, st := range gat.Horizons(fs, ds.m, origins, h, scale, nil) {
			if mase[st.Method] == nil {
				names = append(names, st.Method)
				mase[st.Method] = make([][]float64, h)
			}
			mase[st.Method][st.Horizon-1] = append(mase[st.Method][st.Horizon-1], st.MASE)
		}
		fcCoverage(fs[0], ds.m, val[0], test[0], origins, 0.9, covered, total)
	}
	fmt.Fprintf(out, "\n### %s: MASE by step (gat: median of %d seeds; %d origins)\n\n| method |", ds.name, seeds, len(origins))
	for k := range h {
		fmt.Fprintf(out, " %d |", k+1)
	}
	fmt.Fprintf(out, "\n|---|")
	for range h {
		fmt.Fprintf(out, "---|")
	}
	fmt.Fprintln(out)
	for _, name := range names {
		fmt.Fprintf(out, "| %s |", name)
		for k := range h {
			fmt.Fprintf(out, " %.3f |", median(mase[name][k]))
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "| coverage of the 0.9 interval |")
	var c, n float64
	for k := range h {
		fmt.Fprintf(out, " %.2f |", covered[k]/total[k])
		c, n = c+covered[k], n+total[k]
	}
	fmt.Fprintf(out, "\n\nInterval coverage of the default at level 0.9 over the test forecasts, steps 1..%d: %.3f (validation spans %d rows).\n", h, c/n, len(val))
	return nil
}

// fcCoverage counts, by step, the test forecasts of f from origins and
// those that fall inside its split-conformal interval at level, as
// forecast computes it from the validation rows valStart..split-1.
func fcCoverage(f baseline.Forecaster, m series.Matrix, valStart, split int, origins []int, level float64, covered, total []float64) {
	h := len(covered)
	q := gat.HalfWidths(gat.Residuals(f, m, valStart, split, h), level)
	dst := baseline.Rows(h, m.N)
	for _, o := range origins {
		f.Forecast(m, o, dst)
		for k, row := range dst {
			for i, v := range row {
				total[k]++
				if math.Abs(v-m.At(o+k, i)) <= q[k] {
					covered[k]++
				}
			}
		}
	}
}

// fcTiming compares the default's training time on the first data set with
// the published configuration's (200 epochs, no early stopping), alternating.
func fcTiming(ctx context.Context, out io.Writer, ds fcData) error {
	old := gat.PublishedConfig()
	def := gat.DefaultConfig()
	def.Season = ds.season
	var tn, to []float64
	for range 3 {
		for _, c := range []struct {
			cfg gat.Config
			dst *[]float64
		}{{def, &tn}, {old, &to}} {
			r, err := fcTrain(ctx, c.cfg, ds.m)
			if err != nil {
				return err
			}
			*c.dst = append(*c.dst, r.elapsed.Seconds())
		}
	}
	fmt.Fprintf(out, "\nTraining time on %s, default %.2f s vs the published configuration %.2f s (medians of 3, alternating): ratio %.2f.\n",
		ds.name, median(tn), median(to), median(tn)/median(to))
	return nil
}

// fcDataSets loads the study's data sets with the seasons train_gat gives
// them: the unemployment counts (signed-log z-scored; year and month
// columns, season 12), the Seattle and New York weather (z-scored per
// series; a daily date column, season 7), a seeded synthetic daily set
// with weekly seasonality (no time column; the season detected), and the
// quarterly and monthly panels of R's datasets (rPanels; seasons 4, 12).
func fcDataSets(o options) ([]fcData, error) {
	raw, _, _, err := loadUnemployment(o.Unemployment)
	if err != nil {
		return nil, err
	}
	sets := []fcData{{name: "unemployment", m: rescaleSignedLogZ(raw, int(math.Floor(accTrainFraction*float64(raw.T)))), season: 12}}
	weather, err := loadWeather(filepath.Join(filepath.Dir(o.Unemployment), "weather.csv"))
	if err != nil {
		return nil, err
	}
	weekly := zscorePerColumn(WeeklyStores(8, 200, 1), 140)
	season, _ := baseline.DetectSeason(weekly, 140, baseline.SeasonCandidates())
	sets = append(sets, fcData{name: "weather", m: zscorePerColumn(weather, int(accTrainFraction*float64(weather.T))), season: 7},
		fcData{name: "weekly (synthetic)", m: weekly, season: season})
	panels, err := rPanels()
	return append(sets, panels...), err
}

// WeeklyStores generates days x stores daily sales with a weekly pattern
// (weekend peaks of each store's own size), a linear trend and Gaussian
// noise, seeded: the synthetic set of the forecasting study.
func WeeklyStores(stores, days int, seed uint64) series.Matrix {
	rng := rand.New(rand.NewPCG(seed, 7))
	m := series.Matrix{T: days, N: stores, Values: make([]float64, days*stores)}
	week := []float64{0, -0.2, -0.1, 0.1, 0.4, 1.2, 0.9}
	for s := range stores {
		level, trend, amp := 50+20*rng.Float64(), 0.05+0.1*rng.Float64(), 5+5*rng.Float64()
		for d := range days {
			m.Values[d*stores+s] = level + trend*float64(d) + amp*week[d%7] + 1.5*rng.NormFloat64()
		}
	}
	return m
}

// loadWeather reads weather.csv (location, date, precipitation, temp_max,
// temp_min, wind, weather) as days x 8 series (location x measure).
func loadWeather(path string) (series.Matrix, error) {
	f, err := os.Open(path)
	if err != nil {
		return series.Matrix{}, fmt.Errorf("weather data: %w", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return series.Matrix{}, fmt.Errorf("read weather data: %w", err)
	}
	locs, days := map[string]int{}, map[string]int{}
	var locNames, dayNames []string
	for _, r := range recs[1:] {
		if _, ok := locs[r[0]]; !ok {
			locs[r[0]] = len(locNames)
			locNames = append(locNames, r[0])
		}
		if _, ok := days[r[1]]; !ok {
			days[r[1]] = len(dayNames)
			dayNames = append(dayNames, r[1])
		}
	}
	n := 4 * len(locNames)
	m := series.Matrix{T: len(dayNames), N: n, Values: make([]float64, len(dayNames)*n)}
	for _, r := range recs[1:] {
		for k := range 4 {
			v, err := strconv.ParseFloat(r[2+k], 64)
			if err != nil {
				return series.Matrix{}, fmt.Errorf("weather data: bad row %q", r)
			}
			m.Values[days[r[1]]*n+locs[r[0]]*4+k] = v
		}
	}
	return m, nil
}

// zscorePerColumn standardises each column with the mean and standard
// deviation of its first rows rows.
func zscorePerColumn(m series.Matrix, rows int) series.Matrix {
	out := series.Matrix{T: m.T, N: m.N, Values: slices.Clone(m.Values)}
	for i := range m.N {
		var sum, sq float64
		for t := range rows {
			sum += m.At(t, i)
		}
		mean := sum / float64(rows)
		for t := range rows {
			sq += (m.At(t, i) - mean) * (m.At(t, i) - mean)
		}
		sd := math.Sqrt(sq / float64(rows))
		for t := range m.T {
			out.Values[t*m.N+i] = (m.At(t, i) - mean) / sd
		}
	}
	return out
}
