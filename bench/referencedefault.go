package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// referenceHorizon is the multi-step horizon of the reference table: one
// season, or 12 steps without one, at most the test rows.
func referenceHorizon(ds fcData, tests int) int {
	h := 12
	if ds.season > 1 {
		h = ds.season
	}
	return min(h, tests)
}

// spread keeps at most n of xs, evenly spaced, the first included.
func spread(xs []int, n int) []int {
	if len(xs) <= n {
		return xs
	}
	out := make([]int, n)
	for k := range out {
		out[k] = xs[k*len(xs)/n]
	}
	return out
}

// multiStep returns f's h-step forecasts from each origin, flattened as
// [origin][step][entity].
func multiStep(f baseline.Forecaster, m series.Matrix, origins []int, h int) []float64 {
	out := make([]float64, 0, len(origins)*h*m.N)
	dst := baseline.Rows(h, m.N)
	for _, o := range origins {
		f.Forecast(m, o, dst)
		for _, row := range dst {
			out = append(out, row...)
		}
	}
	return out
}

// relMSE is the mean over steps 1..h of the MSE of pred (as multiStep
// lays it out) over the naive forecast's, the last value before each
// origin; NaN when pred has a NaN.
func relMSE(m series.Matrix, origins []int, h int, pred []float64) float64 {
	var rel float64
	for k := range h {
		var mse, naive float64
		for j, o := range origins {
			if o+k >= m.T {
				continue
			}
			for i := range m.N {
				y := m.At(o+k, i)
				d, n := pred[(j*h+k)*m.N+i]-y, m.At(o-1, i)-y
				mse, naive = mse+d*d, naive+n*n
			}
		}
		rel += mse / naive / float64(h)
	}
	return rel
}

// referenceDefault trains train_gat's default on ds with seeds 0..seeds-1
// and scores it, the per-entity 'auto' choice among it and the ladder
// (chosen on validation at one step for the one-step figure and at h
// steps for the multi-step one), and the network shrunk toward anchor,
// its anchor alone (see shrinkStudy), each the median over the seeds;
// base is the default's configuration.
func referenceDefault(ctx context.Context, base gat.Config, ds fcData, seeds, h int, origins []int, anchor *gat.Model) ([]refScore, error) {
	type score struct{ mse, rel, autoMSE, autoRel float64 }
	scores := make([]score, seeds)
	shrinks := make([]shrinkScore, seeds)
	var elapsed time.Duration
	err := parallelRuns(ctx, seeds, func(ctx context.Context, seed int) error {
		cfg := base
		cfg.Seed, cfg.Season = uint64(seed), ds.season
		start := time.Now()
		model, err := gat.Train(ctx, cfg, ds.m, nil)
		if err != nil {
			return err
		}
		took := time.Since(start)
		if seed == 0 {
			elapsed = took
		}
		if shrinks[seed], err = shrinkStudy(ds, model, anchor, took, h, origins); err != nil {
			return err
		}
		fit, val, test, err := cfg.Samples(ds.m)
		if err != nil {
			return err
		}
		season := max(1, ds.season)
		fs, _, err := gat.Methods(model, ds.m, append(slices.Clone(fit), val...), season)
		if err != nil {
			return err
		}
		chosenOn, _, err := gat.Methods(model, ds.m, fit, season)
		if err != nil {
			return err
		}
		one, err := autoOf(fs, chosenOn, ds.m, val, 1)
		if err != nil {
			return err
		}
		multi, err := autoOf(fs, chosenOn, ds.m, val, min(h, len(val)))
		if err != nil {
			return err
		}
		scores[seed] = score{oneStep(fs[0], ds.m, test), relMSE(ds.m, origins, h, multiStep(fs[0], ds.m, origins, h)),
			oneStep(one, ds.m, test), relMSE(ds.m, origins, h, multiStep(multi, ds.m, origins, h))}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("train the default: %w", err)
	}
	fmt.Fprintf(os.Stderr, "bench accuracy: the default on %s trained (%d seeds)\n", ds.name, seeds)
	printShrink(os.Stderr, ds.name, shrinks)
	pick := func(f func(score) float64) float64 {
		xs := make([]float64, seeds)
		for i, s := range scores {
			xs[i] = f(s)
		}
		return median(xs)
	}
	per := elapsed / time.Duration(ds.m.N)
	name := "gat, default (median of " + strconv.Itoa(seeds) + " seeds)"
	return []refScore{
		{name, pick(func(s score) float64 { return s.mse }), per, pick(func(s score) float64 { return s.rel })},
		{"auto per entity (median)", pick(func(s score) float64 { return s.autoMSE }), per, pick(func(s score) float64 { return s.autoRel })},
		{"gat, shrunk toward its anchor (median)", medianOf(shrinks, func(s shrinkScore) float64 { return s.mse }), per,
			medianOf(shrinks, func(s shrinkScore) float64 { return s.rel })},
	}, nil
}

// referenceAnchor scores train_gat's default untrained, which forecasts
// what its anchor forecasts: the anchor alone, for the network's share of
// the default's figures, and the untrained model. Its time is that of
// choosing and fitting the anchor, per series; base is the default's
// configuration.
func referenceAnchor(base gat.Config, ds fcData, h int, origins []int) (refScore, *gat.Model, error) {
	cfg := base
	cfg.Season = ds.season
	start := time.Now()
	model, err := gat.Untrained(cfg, ds.m)
	if err != nil {
		return refScore{}, nil, fmt.Errorf("the default's anchor: %w", err)
	}
	per := time.Since(start) / time.Duration(ds.m.N)
	f, err := model.Forecaster()
	if err != nil {
		return refScore{}, nil, err
	}
	_, _, test, err := cfg.Samples(ds.m)
	if err != nil {
		return refScore{}, nil, err
	}
	fmt.Fprintf(os.Stderr, "bench accuracy: the default's anchor on %s is %s\n", ds.name, model.Anchor)
	return refScore{"gat, untrained (its anchor alone)", oneStep(f, ds.m, test), per, relMSE(ds.m, origins, h, multiStep(f, ds.m, origins, h))}, model, nil
}

// autoOf is the per-entity choice among chosenOn (fitted on the rows
// before validation) by validation MSE over steps 1..h, each entity then
// forecast by its method among fs.
func autoOf(fs, chosenOn []baseline.Forecaster, m series.Matrix, val []int, h int) (baseline.Forecaster, error) {
	choice, _ := gat.ChooseEntities(chosenOn, m, val[0], val[len(val)-1]+1, h)
	p := &baseline.PerEntity{Members: fs, Choice: make([]int, len(choice))}
	for i, c := range choice {
		name := chosenOn[max(c, 0)].Name()
		p.Choice[i] = slices.IndexFunc(fs, func(f baseline.Forecaster) bool { return f.Name() == name })
		if p.Choice[i] < 0 {
			return nil, fmt.Errorf("method %s has no fit on the training rows", name)
		}
	}
	return p, nil
}

// readMulti reads reference.R's multi-step forecasts and sets each R
// method's rel in scores.
func readMulti(path string, ds fcData, h int, origins []int, scores []refScore) error {
	if len(origins) == 0 {
		return nil
	}
	recs, err := readCSV(path)
	if err != nil {
		return err
	}
	at := map[int]int{}
	for j, o := range origins {
		at[o] = j
	}
	preds := map[string][]float64{}
	for _, r := range recs {
		if preds[r[0]] == nil {
			preds[r[0]] = slices.Repeat([]float64{math.NaN()}, len(origins)*h*ds.m.N)
		}
		n, err1 := strconv.Atoi(r[1][1:])
		o, err2 := strconv.Atoi(r[2])
		k, err3 := strconv.Atoi(r[3])
		j, ok := at[o]
		if err1 != nil || err2 != nil || err3 != nil || !ok || k < 1 || k > h || n < 0 || n >= ds.m.N {
			return fmt.Errorf("reference.R: bad multi-step forecast %q", r)
		}
		v, err := strconv.ParseFloat(r[4], 64)
		if err != nil {
			v = math.NaN()
		}
		preds[r[0]][(j*h+k-1)*ds.m.N+n] = v
	}
	for i := range scores {
		if p, ok := preds[scores[i].method]; ok {
			scores[i].rel = relMSE(ds.m, origins, h, p)
		}
	}
	return nil
}
