package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// `bench anchors` is the validation half of the study "Combining ets,
// arima and theta" (docs/forecasting.md): every panel is cut to its
// training rows, and on the cut panel each anchor variant chooses and
// fits its anchor and trains the default network on the rows before the
// original validation rows, which are the cut panel's test rows. Every
// figure it prints is on those validation rows; no test row is read.

// anchorVariant is one anchor the study weighs for the default.
type anchorVariant struct {
	name string
	set  func(*gat.Config)
}

// anchorVariants are the study's variants V0 (today's default) to V4, in
// order.
func anchorVariants() []anchorVariant {
	return []anchorVariant{
		{"auto", func(c *gat.Config) { c.Anchor = gat.AnchorAuto }},
		{gat.AnchorETSARIMATheta, func(c *gat.Config) { c.Anchor = gat.AnchorETSARIMATheta }},
		{"auto+" + gat.AnchorETSARIMATheta, func(c *gat.Config) { c.Anchor, c.CombineFixed = gat.AnchorAuto, gat.AnchorETSARIMATheta }},
		{gat.AnchorETSARIMAThetaMedian, func(c *gat.Config) { c.Anchor = gat.AnchorETSARIMAThetaMedian }},
		{"auto+" + gat.AnchorETSARIMAThetaMedian, func(c *gat.Config) { c.Anchor, c.CombineFixed = gat.AnchorAuto, gat.AnchorETSARIMAThetaMedian }},
	}
}

// variantConfig is train_gat's default with the anchor variant name.
func variantConfig(name string) (gat.Config, error) {
	cfg := gat.DefaultConfig()
	var names []string
	for _, v := range anchorVariants() {
		if v.name == name {
			v.set(&cfg)
			return cfg, nil
		}
		names = append(names, v.name)
	}
	return cfg, fmt.Errorf("-anchor %q: must be one of %s", name, strings.Join(names, ", "))
}

// variantScore is one variant's validation figures on one panel: the
// anchor alone and the trained default (medians over the seeds), each
// one step ahead and as the mean relative MSE over steps 1..h, and the
// training time summed over the seeds.
type variantScore struct {
	anchor               string
	anchorMSE, anchorRel float64
	mse, rel             float64
	train                time.Duration
	reused               bool
	kept                 []int // the epoch each seed kept
}

// cutToTraining is ds cut to its training rows, with the train fraction
// that makes the original validation rows the cut panel's test rows.
func cutToTraining(ds fcData) (fcData, float64, error) {
	cfg := gat.DefaultConfig()
	cfg.Season = ds.season
	_, val, _, err := cfg.Samples(ds.m)
	if err != nil {
		return fcData{}, 0, err
	}
	rows := val[len(val)-1] + 1
	cut := series.Matrix{T: rows, N: ds.m.N, Values: ds.m.Values[:rows*ds.m.N]}
	return fcData{name: ds.name, m: cut, season: ds.season}, float64(val[0]) / float64(rows), nil
}

func runAnchorStudy(ctx context.Context, o options) error {
	sets, err := panelSets(o)
	if err != nil {
		return err
	}
	all := make([][]variantScore, len(sets))
	for d, full := range sets {
		ds, fraction, err := cutToTraining(full)
		if err != nil {
			return fmt.Errorf("anchors on %s: %w", full.name, err)
		}
		if all[d], err = anchorStudySet(ctx, ds, fraction, o.Seeds); err != nil {
			return fmt.Errorf("anchors on %s: %w", ds.name, err)
		}
		printAnchorStudy(o.Out, ds, all[d])
	}
	printAnchorRule(o.Out, sets, all)
	return nil
}

// anchorStudySet scores every variant on ds, a panel cut to its training
// rows whose first fraction are the rows before validation.
func anchorStudySet(ctx context.Context, ds fcData, fraction float64, seeds int) ([]variantScore, error) {
	var out []variantScore
	for _, v := range anchorVariants() {
		cfg := gat.DefaultConfig()
		v.set(&cfg)
		cfg.Season, cfg.TrainFraction = ds.season, fraction
		s, err := variantOn(ctx, cfg, ds, seeds, out)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.name, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// variantOn scores cfg on ds (see variantScore). A variant whose anchor
// is "auto" and chooses what an earlier "auto" variant chose trains as
// that one did, so its trained figures are taken from it.
func variantOn(ctx context.Context, cfg gat.Config, ds fcData, seeds int, before []variantScore) (variantScore, error) {
	_, _, test, err := cfg.Samples(ds.m)
	if err != nil {
		return variantScore{}, err
	}
	h := referenceHorizon(ds, len(test))
	origins := spread(gat.Origins(test[0], ds.m.T, h), 40)
	untrained, err := gat.Untrained(cfg, ds.m)
	if err != nil {
		return variantScore{}, err
	}
	f, err := untrained.Forecaster()
	if err != nil {
		return variantScore{}, err
	}
	s := variantScore{anchor: untrained.Anchor.String(), anchorMSE: oneStep(f, ds.m, test),
		anchorRel: relMSE(ds.m, origins, h, multiStep(f, ds.m, origins, h))}
	if cfg.Anchor == gat.AnchorAuto && len(before) > 0 && before[0].anchor == s.anchor {
		s.mse, s.rel, s.train, s.reused = before[0].mse, before[0].rel, before[0].train, true
		return s, nil
	}
	mses, rels, took := make([]float64, seeds), make([]float64, seeds), make([]time.Duration, seeds)
	s.kept = make([]int, seeds)
	err = parallelRuns(ctx, seeds, func(ctx context.Context, seed int) error {
		c := cfg
		c.Seed = uint64(seed)
		start := time.Now()
		model, err := gat.Train(ctx, c, ds.m, nil)
		if err != nil {
			return err
		}
		took[seed], s.kept[seed] = time.Since(start), model.Kept
		g, err := model.Forecaster()
		if err != nil {
			return err
		}
		mses[seed], rels[seed] = oneStep(g, ds.m, test), relMSE(ds.m, origins, h, multiStep(g, ds.m, origins, h))
		return nil
	})
	if err != nil {
		return variantScore{}, err
	}
	for _, d := range took {
		s.train += d
	}
	s.mse, s.rel = median(mses), median(rels)
	fmt.Fprintf(os.Stderr, "bench anchors: %s, %s trained (%d seeds, %s)\n", ds.name, cfg.Anchor, seeds, s.train.Round(time.Millisecond))
	return s, nil
}

// printAnchorStudy prints one panel's validation figures, each variant's
// ratio to the first's beside them.
func printAnchorStudy(out io.Writer, ds fcData, scores []variantScore) {
	fmt.Fprintf(out, "\n### %s, validation rows (cut panel of %d rows)\n\n", ds.name, ds.m.T)
	fmt.Fprintln(out, "| variant | anchor | anchor alone, 1 step | 1..h | default (median), 1 step | ÷ V0 | 1..h | ÷ V0 | training (all seeds) |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|")
	for i, s := range scores {
		reused := ""
		if s.reused {
			reused = " (as V0)"
		}
		fmt.Fprintf(out, "| %s | %s | %.5f | %.4f | %.5f | %.3f | %.4f | %.3f | %s%s |\n", anchorVariants()[i].name, s.anchor,
			s.anchorMSE, s.anchorRel, s.mse, s.mse/scores[0].mse, s.rel, s.rel/scores[0].rel, s.train.Round(time.Millisecond), reused)
	}
}

// printAnchorRule applies the pre-registered rule to every variant after
// the first and prints the verdict: rules 1 to 4 of docs/forecasting.md,
// "Combining ets, arima and theta".
func printAnchorRule(out io.Writer, sets []fcData, all [][]variantScore) {
	if len(all) == 0 {
		return
	}
	fmt.Fprintln(out, "\n### the rule")
	for v := 1; v < len(anchorVariants()); v++ {
		lifts, worse, slower := false, false, false
		var logSum float64
		for d, ds := range sets {
			s, base := all[d][v], all[d][0]
			r1, r2 := s.mse/base.mse, s.rel/base.rel
			logSum += math.Log(r1) + math.Log(r2)
			if (strings.Contains(ds.name, "quarterly") || strings.Contains(ds.name, "weekly") || ds.name == "weather") && min(r1, r2) <= 0.99 {
				lifts = true
			}
			worse = worse || max(r1, r2) > 1.01
			slower = slower || float64(s.train) > 1.5*float64(base.train)
		}
		gm := math.Exp(logSum / float64(2*len(sets)))
		pass := lifts && !worse && gm < 1 && !slower && len(sets) == 5
		fmt.Fprintf(out, "- %s: lifts a losing panel by 1 %%: %v; a figure over 1 %% worse: %v; geometric mean %.4f; over 1.5x the time: %v; passes: %v\n",
			anchorVariants()[v].name, lifts, worse, gm, slower, pass)
	}
}

// panelSets are the forecasting data sets whose names contain -panel
// (every one when it is empty).
func panelSets(o options) ([]fcData, error) {
	sets, err := fcDataSets(o)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(sets, func(ds fcData) bool { return !strings.Contains(ds.name, o.Panel) }), nil
}
