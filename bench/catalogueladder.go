package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mallard/mallard/mlops/gat"
)

// `bench ladder` is the trained half of the study "What leaving arima
// out costs" (docs/catalogue.md), on validation rows only, as `bench
// anchors` is for its study: every panel is cut to its training rows, and
// on the cut panel the default network is trained with the anchor chosen
// as past gat.CatalogueEntities entities (anchor_origins 'validation'),
// once with arima among the candidates (ladder 'full') and once without
// (ladder 'without_arima'), on the rows before the original validation
// rows, which are the cut panel's test rows. The rule, fixed before the
// run: leaving arima out stays the default past 2,000 series whatever
// this shows; every ratio is reported; where the trained network's
// median validation MSE without arima is over 1.05 times that with it on
// a panel, the docs say so and name ladder := 'full' for such data.

// ladderVariants are the study's two configurations, with arima first.
func ladderVariants() []anchorVariant {
	set := func(ladder string) func(*gat.Config) {
		return func(c *gat.Config) {
			c.Anchor, c.AnchorOrigins, c.Ladder = gat.AnchorAuto, gat.AnchorOriginsValidation, ladder
		}
	}
	return []anchorVariant{{gat.LadderFull, set(gat.LadderFull)}, {gat.LadderWithoutARIMA, set(gat.LadderWithoutARIMA)}}
}

func runLadderStudy(ctx context.Context, o options) error {
	sets, err := panelSets(o)
	if err != nil {
		return err
	}
	fmt.Fprintln(o.Out, "| panel | ladder | anchor | anchor alone, 1 step | trained (median), 1 step | ÷ full | 1..h | ÷ full | training (all seeds) |")
	fmt.Fprintln(o.Out, "|---|---|---|---|---|---|---|---|---|")
	var over []string
	for _, full := range sets {
		ds, fraction, err := cutToTraining(full)
		if err != nil {
			return fmt.Errorf("ladder on %s: %w", full.name, err)
		}
		var scores []variantScore
		for _, v := range ladderVariants() {
			cfg := gat.DefaultConfig()
			v.set(&cfg)
			cfg.Season, cfg.TrainFraction = ds.season, fraction
			s, err := variantOn(ctx, cfg, ds, o.Seeds, nil)
			if err != nil {
				return fmt.Errorf("ladder on %s, %s: %w", ds.name, v.name, err)
			}
			scores = append(scores, s)
			base := scores[0]
			fmt.Fprintf(o.Out, "| %s | %s | %s | %.5f | %.5f | %.3f | %.4f | %.3f | %s |\n", ds.name, v.name, s.anchor, s.anchorMSE,
				s.mse, s.mse/base.mse, s.rel, s.rel/base.rel, s.train.Round(time.Millisecond))
		}
		if r := scores[1].mse / scores[0].mse; r > 1.05 || math.IsNaN(r) {
			over = append(over, fmt.Sprintf("%s (%.3f)", ds.name, r))
		}
	}
	fmt.Fprintf(o.Out, "\npanels where the trained network without arima is over 1.05 times the full ladder's, 1 step: %v\n", over)
	return nil
}
