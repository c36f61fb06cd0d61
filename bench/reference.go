package main

import (
	"context"
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// `bench accuracy -reference r` scores Mallard's baselines against R's
// forecast package on the study's data sets: each set's rescaled rows go
// to a CSV, bench/reference.R fits ets(), auto.arima() and thetaf() on the
// training rows of every series and forecasts the test rows one step
// ahead with the parameters held fixed, and the one-step test MSEs are
// printed side by side with Mallard's, every Kind fitted on the same
// training rows.

// referenceScript is bench/reference.R.
//
//go:embed reference.R
var referenceScript []byte

// referencePairs names the R method each Mallard baseline is measured
// against; a Kind without one is compared with R's best only.
func referencePairs() map[string]string {
	return map[string]string{"ets": "ets", "theta": "thetaf", "arima": "auto_arima"}
}

// refScore is one method's one-step test MSE on a data set and its time
// per series (fitting and forecasting the test rows).
type refScore struct {
	method    string
	mse       float64
	perSeries time.Duration
	// rel is the mean over steps 1..h of the method's h-step MSE over the
	// naive forecast's (the last value seen), NaN when not measured.
	rel float64
}

func runReference(ctx context.Context, o options) error {
	if o.Reference != "r" {
		return fmt.Errorf("-reference %q: the only reference is r (R's forecast package through Rscript)", o.Reference)
	}
	base, err := variantConfig(o.Anchor)
	if err != nil {
		return err
	}
	sets, err := panelSets(o)
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		return fmt.Errorf("-panel %q: no data set's name contains it", o.Panel)
	}
	dir, err := os.MkdirTemp("", "mallard-reference-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "reference.R")
	if err := os.WriteFile(script, referenceScript, 0o600); err != nil {
		return err
	}
	for _, ds := range sets {
		if err := referenceSet(ctx, o.Out, dir, script, ds, o.Seeds, base); err != nil {
			return fmt.Errorf("reference on %s: %w", ds.name, err)
		}
	}
	return nil
}

// referenceSet scores one data set, Mallard's baselines then R's, and
// prints its table; base is the default's configuration.
func referenceSet(ctx context.Context, out io.Writer, dir, script string, ds fcData, seeds int, base gat.Config) error {
	cfg := gat.DefaultConfig()
	cfg.Highway, cfg.Season = max(4, ds.season), ds.season
	fit, val, test, err := cfg.Samples(ds.m)
	if err != nil {
		return err
	}
	train := append(slices.Clone(fit), val...)
	rows := slices.Max(train) + 1
	h := referenceHorizon(ds, len(test))
	origins := spread(gat.Origins(test[0], ds.m.T, h), 40)
	var mallard []refScore
	for _, kind := range baseline.Kinds() {
		start := time.Now()
		f, err := baseline.FitForecaster(kind, ds.m, train, baseline.Options{Window: 4, Season: ds.season})
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench accuracy: %s on %s left out: %v\n", kind, ds.name, err)
			continue
		}
		mse := oneStep(f, ds.m, test)
		perSeries := time.Since(start) / time.Duration(ds.m.N)
		mallard = append(mallard, refScore{string(kind), mse, perSeries, relMSE(ds.m, origins, h, multiStep(f, ds.m, origins, h))})
	}
	anchor, anchorF, err := referenceAnchor(base, ds, h, origins)
	if err != nil {
		return err
	}
	mallard = append([]refScore{anchor}, mallard...)
	if seeds > 0 {
		def, err := referenceDefault(ctx, base, ds, seeds, h, origins, anchorF)
		if err != nil {
			return err
		}
		mallard = append(def, mallard...)
	}
	fmt.Fprintf(os.Stderr, "bench accuracy: running R on %s\n", ds.name)
	r, err := runR(ctx, dir, script, ds, rows, test, h, origins)
	if err != nil {
		return err
	}
	printReference(out, ds, rows, len(test), h, len(origins), mallard, r)
	return nil
}

// runR writes ds's rows to a CSV, runs reference.R on them with the first
// rows rows as training rows, and returns each R method's one-step MSE
// over the test rows and its mean time per series.
func runR(ctx context.Context, dir, script string, ds fcData, rows int, test []int, h int, origins []int) ([]refScore, error) {
	in, pred, times, multi := filepath.Join(dir, "in.csv"), filepath.Join(dir, "pred.csv"), filepath.Join(dir, "time.csv"), filepath.Join(dir, "multi.csv")
	if err := writeMatrixCSV(in, ds.m); err != nil {
		return nil, err
	}
	at := make([]string, len(origins))
	for k, o := range origins {
		at[k] = strconv.Itoa(o)
	}
	cmd := exec.CommandContext(ctx, "Rscript", script, in, strconv.Itoa(rows), strconv.Itoa(max(1, ds.season)), pred, times,
		strconv.Itoa(h), strings.Join(at, ","), multi)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("Rscript reference.R: %w", err)
	}
	preds, err := readCSV(pred)
	if err != nil {
		return nil, err
	}
	p := map[string][]float64{} // method -> T x N predictions, NaN where none
	var methods []string
	for _, r := range preds {
		if p[r[0]] == nil {
			methods = append(methods, r[0])
			p[r[0]] = slices.Repeat([]float64{math.NaN()}, len(ds.m.Values))
		}
		n, err1 := strconv.Atoi(r[1][1:])
		row, err2 := strconv.Atoi(r[2])
		v, err3 := strconv.ParseFloat(r[3], 64)
		if err1 != nil || err2 != nil || row < 0 || row >= ds.m.T || n < 0 || n >= ds.m.N {
			return nil, fmt.Errorf("reference.R: bad prediction %q", r)
		}
		if err3 != nil {
			v = math.NaN() // NA: the method failed on the series
		}
		p[r[0]][row*ds.m.N+n] = v
	}
	secs, err := readCSV(times)
	if err != nil {
		return nil, err
	}
	var out []refScore
	for _, meth := range methods {
		var sum float64
		for _, t := range test {
			for n := range ds.m.N {
				d := p[meth][t*ds.m.N+n] - ds.m.At(t, n)
				sum += d * d
			}
		}
		var total float64
		for _, r := range secs {
			if s, err := strconv.ParseFloat(r[2], 64); err == nil && r[0] == meth {
				total += s
			}
		}
		out = append(out, refScore{meth, sum / float64(len(test)*ds.m.N), time.Duration(total / float64(ds.m.N) * float64(time.Second)), math.NaN()})
	}
	return out, readMulti(multi, ds, h, origins, out)
}

// writeMatrixCSV writes m with a header s0, s1, ... and one line per row.
func writeMatrixCSV(path string, m series.Matrix) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	rec := make([]string, m.N)
	for n := range rec {
		rec[n] = "s" + strconv.Itoa(n)
	}
	w.Write(rec)
	for t := range m.T {
		for n := range rec {
			rec[n] = strconv.FormatFloat(m.At(t, n), 'g', -1, 64)
		}
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readCSV reads a CSV file without its header line.
func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, fmt.Errorf("read %s: %v", path, err)
	}
	return recs[1:], nil
}

// printReference prints one data set's table: every method's one-step
// test MSE and its mean relative MSE over steps 1..h, their ratios to the
// best of R's, the ratio to its R counterpart, and its time per series.
func printReference(out io.Writer, ds fcData, rows, tests, h, origins int, mallard, r []refScore) {
	best, bestRel := math.Inf(1), math.Inf(1)
	byName := map[string]float64{}
	for _, s := range r {
		byName[s.method] = s.mse
		best, bestRel = min(best, s.mse), min(bestRel, s.rel)
	}
	fmt.Fprintf(out, "\n### %s (season %d, %d series, %d training rows, %d test rows): one-step test MSE and mean MSE over steps 1..%d relative to the naive forecast's (%d origins), parameters fixed on the training rows\n\n",
		ds.name, ds.season, ds.m.N, rows, tests, h, origins)
	fmt.Fprintf(out, "| method | test MSE | ÷ best R | ÷ R counterpart | rel MSE 1..%d | ÷ best R | time per series |\n|---|---|---|---|---|---|---|\n", h)
	for _, s := range mallard {
		pair := ""
		if rm, ok := referencePairs()[s.method]; ok {
			if v, ok := byName[rm]; ok {
				pair = fmt.Sprintf("%.3f (%s)", s.mse/v, rm)
			}
		}
		fmt.Fprintf(out, "| %s | %.4f | %.3f | %s | %.3f | %.3f | %s |\n", s.method, s.mse, s.mse/best, pair, s.rel, s.rel/bestRel, fmtDuration(s.perSeries))
	}
	for _, s := range r {
		fmt.Fprintf(out, "| R %s | %.4f | %.3f | | %.3f | %.3f | %s |\n", s.method, s.mse, s.mse/best, s.rel, s.rel/bestRel, fmtDuration(s.perSeries))
	}
}

// fmtDuration writes d in seconds with three significant figures.
func fmtDuration(d time.Duration) string { return fmt.Sprintf("%.3g s", d.Seconds()) }
