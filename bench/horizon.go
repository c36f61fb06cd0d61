package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// horizonSets are the horizon study's data: the unemployment counts and
// the weather, read and rescaled as the accuracy study reads them.
func horizonSets(o options) ([]fcData, error) {
	raw, _, _, err := loadUnemployment(o.Unemployment)
	if err != nil {
		return nil, err
	}
	weather, err := loadWeather(filepath.Join(filepath.Dir(o.Unemployment), "weather.csv"))
	if err != nil {
		return nil, err
	}
	return []fcData{{name: "unemployment", m: rescaleSignedLogZ(raw, int(math.Floor(accTrainFraction*float64(raw.T)))), season: 12},
		{name: "weather", m: zscorePerColumn(weather, int(accTrainFraction*float64(weather.T))), season: 7}}, nil
}

// runHorizonStudy trains the default network (train_gat's: a highway
// of max(4, season) lags) validated at horizon 1 and
// at one season, seeds 0..Seeds-1, on each data set, and prints for each
// run the validation MSE over steps 1..season (what the default is chosen
// on), the one-step test MSE and the mean over steps 1..12 of the test
// rel_mse (MSE over last_value's); then the means over seeds. Then it
// times, on unemployment with the default options, training the network
// alone and with its twin without the graph (medians of 3, alternating).
func runHorizonStudy(ctx context.Context, o options) error {
	sets, err := horizonSets(o)
	if err != nil {
		return err
	}
	fmt.Println("| data | h | seed | val MSE, steps 1..season | test MSE, 1 step | test rel_mse, mean of steps 1..12 | kept epoch | seconds |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, ds := range sets {
		for _, h := range []int{1, ds.season} {
			var sums [3]float64
			for seed := range o.Seeds {
				cfg := gat.DefaultConfig()
				cfg.Season, cfg.Horizon, cfg.Seed = ds.season, h, uint64(seed)
				cfg.Highway = max(cfg.Highway, ds.season) // train_gat's default highway
				began := time.Now()
				model, err := gat.Train(ctx, cfg, ds.m, nil)
				if err != nil {
					return fmt.Errorf("%s h %d seed %d: %w", ds.name, h, seed, err)
				}
				took := time.Since(began)
				r, err := horizonScores(model, ds.m, ds.season)
				if err != nil {
					return err
				}
				for k := range sums {
					sums[k] += r[k] / float64(o.Seeds)
				}
				fmt.Printf("| %s | %d | %d | %.5f | %.5f | %.4f | %d | %.1f |\n", ds.name, h, seed, r[0], r[1], r[2], model.Kept, took.Seconds())
			}
			fmt.Printf("| %s | %d | mean | **%.5f** | **%.5f** | **%.4f** | | |\n", ds.name, h, sums[0], sums[1], sums[2])
		}
	}
	return timeTwin(ctx, sets[0])
}

// scoring is what the studies score model with on m: its validation and
// test rows, its forecaster, and no scale (relative errors only).
func scoring(model *gat.Model, m series.Matrix) (val, test []int, f baseline.Forecaster, scale []float64, err error) {
	if _, val, test, err = model.Config.Samples(m); err != nil {
		return nil, nil, nil, nil, err
	}
	if f, err = model.Forecaster(); err != nil {
		return nil, nil, nil, nil, err
	}
	return val, test, f, slices.Repeat([]float64{math.NaN()}, m.N), nil
}

// horizonScores are the model's validation MSE over steps 1..season
// from the validation origins, its one-step test MSE, and the mean over
// steps 1..12 of its test rel_mse.
func horizonScores(model *gat.Model, m series.Matrix, season int) ([3]float64, error) {
	val, test, f, scale, err := scoring(model, m)
	if err != nil {
		return [3]float64{}, err
	}
	var out [3]float64
	h := min(season, len(val))
	for _, st := range gat.Horizons([]baseline.Forecaster{f}, m, gat.Origins(val[0], val[len(val)-1]+1, h), h, scale, nil) {
		out[0] += st.MSE / float64(h)
	}
	if out[1], err = model.MSE(m, test); err != nil {
		return out, err
	}
	for _, st := range gat.Horizons([]baseline.Forecaster{f, baseline.LastValue{}}, m, gat.Origins(test[0], m.T, 12), 12, scale, nil) {
		if st.Method == gat.ModelMethod {
			out[2] += st.RelMSE / 12
		}
	}
	return out, nil
}

// timeTwin prints the medians of 3 alternating timings of training the
// default network on ds alone and with its twin without the graph (which
// reuses the network's anchor), and their ratio.
func timeTwin(ctx context.Context, ds fcData) error {
	cfg := gat.DefaultConfig()
	cfg.Season = ds.season // horizon 1, train_gat's default
	cfg.Highway = max(cfg.Highway, ds.season)
	var alone, both []float64
	for range 3 {
		began := time.Now()
		model, err := gat.Train(ctx, cfg, ds.m, nil)
		if err != nil {
			return err
		}
		alone = append(alone, time.Since(began).Seconds())
		began = time.Now()
		if _, err := gat.Train(ctx, cfg, ds.m, nil); err != nil {
			return err
		}
		twin := cfg
		twin.NoGraph = true
		if _, err := gat.TrainFrom(ctx, twin, ds.m, gat.Start{Anchor: model.Anchor}, nil); err != nil {
			return err
		}
		both = append(both, time.Since(began).Seconds())
	}
	fmt.Printf("\nTraining on %s with default options: the network alone %.2f s, with its twin without the graph %.2f s (medians of 3, alternating): ratio %.2f.\n",
		ds.name, median(alone), median(both), median(both)/median(alone))
	return nil
}
