package gat_test

import (
	"math"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// BenchmarkLadderWithoutARIMAOnValidation measures, on validation rows
// only (never the test rows), what leaving arima out of the ladder and of
// anchor "auto"'s candidates (ladder 'without_arima', the rule past
// gat.CatalogueEntities entities) costs on the public panels. The rule,
// fixed before the run: leaving arima out stays the default past 2,000
// series whatever this shows, since its cost is what the catalogue's
// time budget cannot hold; the docs report every ratio below, and where
// one exceeds 1.05 they say so and name ladder := 'full' as the way to
// keep arima. Three measures, each without arima over with it:
//
//   - anchor "auto", choosing on the fitting rows alone (their last
//     validation-span's worth standing for validation), under each anchor
//     origins rule (the validation span alone is the rule at that size),
//     and the chosen anchor fitted on every fitting row, scored on the
//     validation rows (as BenchmarkAnchorOriginsOnValidation);
//   - forecast's method 'auto': each entity's ladder method chosen by its
//     one-step MSE on the same inner rows, fitted on the rows before
//     them, then fitted on every fitting row and scored on validation;
//   - the best single ladder method fitted on the fitting rows, by its
//     validation MSE (what evaluate's ladder shows the network against).
func BenchmarkLadderWithoutARIMAOnValidation(b *testing.B) {
	panels := validationPanels(b)
	for range b.N {
		for _, p := range panels {
			cfg, fit, val, core, inner := levelDown(b, p)
			b.Logf("%s (%d series, %d fitting rows, %d validation):", p.name, p.m.N, len(fit), len(val))
			for _, origins := range gat.AnchorOriginRules() {
				cfg.AnchorOrigins = origins
				var mse [2]float64
				var chosen [2]string
				for r, ladder := range gat.LadderRules() {
					cfg.Ladder = ladder
					a, err := gat.ChooseAnchor(cfg, p.m, core, inner)
					if err != nil {
						b.Fatal(err)
					}
					mse[r], chosen[r] = baseline.MSE(anchorOf(b, cfg, p.m, fit, a), p.m, val, nil), a.String()
				}
				b.Logf("  anchor auto, %s origins: with arima %s %.4f; without %s %.4f; ratio %.3f",
					origins, chosen[0], mse[0], chosen[1], mse[1], mse[1]/mse[0])
			}
			opt := baseline.Options{Window: cfg.Window, Season: p.season}
			with, without := perEntityMSE(b, p.m, core, inner, fit, val, opt)
			b.Logf("  method auto (per entity): with arima %.4f; without %.4f; ratio %.3f", with, without, without/with)
			bestWith, nameWith, bestWithout, nameWithout := bestLadderMethod(p.m, fit, val, opt)
			b.Logf("  best ladder method: with arima %s %.4f; without %s %.4f; ratio %.3f",
				nameWith, bestWith, nameWithout, bestWithout, bestWithout/bestWith)
		}
	}
}

// ladderFits fits every kind of the ladder on the samples train, leaving
// out what cannot be fitted; ar_diff on the samples with its window of
// lags before them, as gat.Methods fits it.
func ladderFits(m series.Matrix, train []int, opt baseline.Options) []baseline.Forecaster {
	var out []baseline.Forecaster
	for _, kind := range baseline.Kinds() {
		samples := train
		if kind == baseline.KindARDiff {
			samples = slices.DeleteFunc(slices.Clone(train), func(t int) bool { return t < opt.Window+1 })
		}
		if f, err := baseline.FitForecaster(kind, m, samples, opt); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// without is fs less arima.
func without(fs []baseline.Forecaster) []baseline.Forecaster {
	return slices.DeleteFunc(slices.Clone(fs), func(f baseline.Forecaster) bool { return f.Name() == string(baseline.KindARIMA) })
}

// perEntityMSE is the validation MSE of each entity's ladder method
// chosen on inner (fitted on core), refitted on fit, with arima among
// the methods and without it.
func perEntityMSE(b *testing.B, m series.Matrix, core, inner, fit, val []int, opt baseline.Options) (with, withoutARIMA float64) {
	onCore, onFit := ladderFits(m, core, opt), ladderFits(m, fit, opt)
	score := func(chooseFrom []baseline.Forecaster) float64 {
		best, names := make([]float64, m.N), make([]string, m.N)
		for i := range best {
			best[i] = math.Inf(1)
		}
		for _, f := range chooseFrom {
			for i, e := range baseline.MSEPerEntity(f, m, inner) {
				if e < best[i] {
					best[i], names[i] = e, f.Name()
				}
			}
		}
		p := &baseline.PerEntity{Members: onFit, Choice: make([]int, m.N)}
		for i, name := range names {
			p.Choice[i] = slices.IndexFunc(onFit, func(f baseline.Forecaster) bool { return f.Name() == name })
			if p.Choice[i] < 0 {
				b.Fatalf("method %s chosen for entity %d cannot be fitted on the fitting rows", name, i)
			}
		}
		return baseline.MSE(p, m, val, nil)
	}
	return score(onCore), score(without(onCore))
}

// bestLadderMethod is the lowest validation MSE of a ladder method fitted
// on fit, and its name, with arima among the methods and without it.
func bestLadderMethod(m series.Matrix, fit, val []int, opt baseline.Options) (with float64, nameWith string, withoutARIMA float64, nameWithout string) {
	with, withoutARIMA = math.Inf(1), math.Inf(1)
	for _, f := range ladderFits(m, fit, opt) {
		e := baseline.MSE(f, m, val, nil)
		if e < with {
			with, nameWith = e, f.Name()
		}
		if e < withoutARIMA && f.Name() != string(baseline.KindARIMA) {
			withoutARIMA, nameWithout = e, f.Name()
		}
	}
	return with, nameWith, withoutARIMA, nameWithout
}
