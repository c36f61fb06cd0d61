package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/mallard/mallard/mlops/gat"
)

// `bench keeps` is the validation half of the study "Keeping the network
// by the one-standard-error rule" (docs/forecasting.md): as `bench
// anchors`, every panel is cut to its training rows and the default is
// trained on the rows before the original validation rows, once under
// each keep rule; every figure is on the original validation rows.

// keepVariants are the study's rules: K0 (today's default), K1 and K2.
func keepVariants() []string { return []string{gat.KeepBest, gat.KeepOneSE, gat.KeepOneSEHorizons} }

func runKeepStudy(ctx context.Context, o options) error {
	sets, err := panelSets(o)
	if err != nil {
		return err
	}
	all := make([][]variantScore, len(sets))
	for d, full := range sets {
		ds, fraction, err := cutToTraining(full)
		if err != nil {
			return fmt.Errorf("keeps on %s: %w", full.name, err)
		}
		for _, rule := range keepVariants() {
			cfg := gat.DefaultConfig()
			cfg.Season, cfg.TrainFraction, cfg.KeepNetwork = ds.season, fraction, rule
			s, err := variantOn(ctx, cfg, ds, o.Seeds, nil)
			if err != nil {
				return fmt.Errorf("keeps on %s, %s: %w", ds.name, rule, err)
			}
			all[d] = append(all[d], s)
		}
		printKeepStudy(o.Out, ds, all[d])
	}
	printKeepRule(o.Out, sets, all)
	return nil
}

// printKeepStudy prints one panel's validation figures under each rule,
// with the ratios to K0's and the epochs the seeds kept.
func printKeepStudy(out io.Writer, ds fcData, scores []variantScore) {
	fmt.Fprintf(out, "\n### %s, validation rows (cut panel of %d rows)\n\n", ds.name, ds.m.T)
	fmt.Fprintln(out, "| rule | anchor | anchor alone, 1 step | 1..h | default (median), 1 step | ÷ K0 | 1..h | ÷ K0 | kept epochs | training (all seeds) |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|")
	for i, s := range scores {
		fmt.Fprintf(out, "| %s | %s | %.5f | %.4f | %.5f | %.3f | %.4f | %.3f | %v | %s |\n", keepVariants()[i], s.anchor,
			s.anchorMSE, s.anchorRel, s.mse, s.mse/scores[0].mse, s.rel, s.rel/scores[0].rel, s.kept, s.train.Round(time.Millisecond))
	}
}

// printKeepRule applies the pre-registered rule to K1 and K2 and prints the
// verdict: rules 1 to 3 of docs/forecasting.md, "Keeping the network by
// the one-standard-error rule".
func printKeepRule(out io.Writer, sets []fcData, all [][]variantScore) {
	if len(all) == 0 {
		return
	}
	fmt.Fprintln(out, "\n### the rule")
	for v := 1; v < len(keepVariants()); v++ {
		worse, slower := false, false
		var logSum float64
		for d := range sets {
			s, base := all[d][v], all[d][0]
			r1, r2 := s.mse/base.mse, s.rel/base.rel
			logSum += math.Log(r1) + math.Log(r2)
			worse = worse || max(r1, r2) > 1.01
			slower = slower || float64(s.train) > 1.5*float64(base.train)
		}
		gm := math.Exp(logSum / float64(2*len(sets)))
		pass := !worse && gm < 1 && !slower && len(sets) == 5
		fmt.Fprintf(out, "- %s: a figure over 1 %% worse: %v; geometric mean %.4f; over 1.5x the time: %v; passes: %v\n",
			keepVariants()[v], worse, gm, slower, pass)
	}
}
