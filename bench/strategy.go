package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// runStrategyStudy trains train_gat's default network at horizon 1 and at
// one season with each strategy (at horizon 1 multi_output is the
// recursive network, so it is trained once), seeds 0..Seeds-1, on the
// unemployment data, the weather and the synthetic weekly set, and prints
// per run and as means over seeds: the validation mean over steps 1..h of
// rel_mse (MSE over last_value's at the same step, from the validation
// origins), which the default is chosen on, then the kept epoch's
// validation score, the test mean rel_mse over steps 1..h and the seconds
// the run took.
func runStrategyStudy(ctx context.Context, o options) error {
	sets, err := fcDataSets(o)
	if err != nil {
		return err
	}
	fmt.Println("| data | h | strategy | seed | val rel_mse, mean of steps 1..h | val MSE (score) | test rel_mse, mean of steps 1..h | kept epoch | seconds |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, ds := range sets[:3] {
		for _, h := range []int{1, ds.season} {
			for _, strategy := range gat.Strategies() {
				if h == 1 && strategy != gat.StrategyRecursive {
					continue
				}
				if err := strategyRuns(ctx, o, ds, h, strategy); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// strategyRuns prints one row per seed of ds at horizon h with strategy,
// then their means.
func strategyRuns(ctx context.Context, o options, ds fcData, h int, strategy string) error {
	var sums [3]float64
	for seed := range o.Seeds {
		cfg := gat.DefaultConfig()
		cfg.Season, cfg.Horizon, cfg.Seed, cfg.Strategy = ds.season, h, uint64(seed), strategy
		cfg.Highway = max(cfg.Highway, ds.season) // train_gat's default highway
		began := time.Now()
		model, err := gat.Train(ctx, cfg, ds.m, nil)
		if err != nil {
			return fmt.Errorf("%s h %d %s seed %d: %w", ds.name, h, strategy, seed, err)
		}
		took := time.Since(began)
		r, err := strategyScores(model, ds.m, h)
		if err != nil {
			return err
		}
		for k := range sums {
			sums[k] += r[k] / float64(o.Seeds)
		}
		fmt.Printf("| %s | %d | %s | %d | %.4f | %.5f | %.4f | %d | %.1f |\n", ds.name, h, strategy, seed, r[0], r[1], r[2], model.Kept, took.Seconds())
	}
	fmt.Printf("| %s | %d | %s | mean | **%.4f** | %.5f | %.4f | | |\n", ds.name, h, strategy, sums[0], sums[1], sums[2])
	return nil
}

// strategyScores are the model's validation mean over steps 1..h of
// rel_mse, its selection score, and its test mean over steps 1..h of
// rel_mse.
func strategyScores(model *gat.Model, m series.Matrix, h int) ([3]float64, error) {
	val, test, f, scale, err := scoring(model, m)
	if err != nil {
		return [3]float64{}, err
	}
	relMean := func(origins []int) float64 {
		var sum float64
		for _, st := range gat.Horizons([]baseline.Forecaster{f, baseline.LastValue{}}, m, origins, h, scale, nil) {
			if st.Method == gat.ModelMethod {
				sum += st.RelMSE / float64(h)
			}
		}
		return sum
	}
	return [3]float64{relMean(gat.Origins(val[0], val[len(val)-1]+1, h)), model.Score(), relMean(gat.Origins(test[0], m.T, h))}, nil
}
