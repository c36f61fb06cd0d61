package gat_test

import (
	"context"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// BenchmarkForecastFromState times a 12-step forecast with intervals of
// the model's network and of ets on the unemployment panel, from the
// state a version keeps against fitting the ladder again as forecast did
// before versions kept it (gat.Methods on the training samples for the
// forecast, on the fitting samples for the widths), and prints the ratio
// measured in the same run.
func BenchmarkForecastFromState(b *testing.B) {
	m := unemployment(b)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed, cfg.Season, cfg.Workers = 2, 1, 12, 2
	model, err := gat.Train(context.Background(), cfg, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	_, _, st, err := gat.EvaluateState(model, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	fit, val, _, err := cfg.Samples(m)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{gat.ModelMethod, string(baseline.KindETS)} {
		var fromState, refit time.Duration
		for range b.N {
			began := time.Now()
			if _, ok, err := st.Forecast(model, m, name, 12, -1); !ok || err != nil {
				b.Fatal(name, ok, err)
			}
			st.HalfWidths(name, 12, 0.9)
			fromState += time.Since(began)
			began = time.Now()
			refitted(b, model, m, fit, val, name)
			refit += time.Since(began)
		}
		b.Logf("%s: from the state %v, refitting %v a forecast: %.2g of refitting", name, fromState/time.Duration(b.N),
			refit/time.Duration(b.N), fromState.Seconds()/refit.Seconds())
	}
}

// refitted forecasts method name 12 steps with intervals as forecast did
// before versions kept their state.
func refitted(b *testing.B, model *gat.Model, m series.Matrix, fit, val []int, name string) {
	pick := func(train []int) baseline.Forecaster {
		fs, _, err := gat.Methods(model, m, train, 12)
		if err != nil {
			b.Fatal(err)
		}
		return fs[slices.IndexFunc(fs, func(f baseline.Forecaster) bool { return f.Name() == name })]
	}
	pick(append(slices.Clone(fit), val...)).Forecast(m, m.T, baseline.Rows(12, m.N))
	gat.EntityHalfWidths(gat.EntityResiduals(pick(fit), m, val[0], val[len(val)-1]+1, 12), 0.9)
}

// BenchmarkLadderFromState times rebuilding the ladders on the training
// and on the fitting samples from a version's state (what evaluate,
// detect_anomalies and forecast 'auto' read) against fitting them again
// with gat.Methods (what they did before), on the unemployment panel, and
// prints the ratio measured in the same run.
func BenchmarkLadderFromState(b *testing.B) {
	m := unemployment(b)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed, cfg.Season, cfg.Workers = 2, 1, 12, 2
	model, err := gat.Train(context.Background(), cfg, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	_, _, st, err := gat.EvaluateState(model, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	fit, val, _, err := cfg.Samples(m)
	if err != nil {
		b.Fatal(err)
	}
	data, err := model.Marshal()
	if err != nil {
		b.Fatal(err)
	}
	stored, err := gat.Unmarshal(data) // a stored model keeps no anchor fits to reuse
	if err != nil {
		b.Fatal(err)
	}
	var fromState, refit time.Duration
	for range b.N {
		began := time.Now()
		for _, v := range []bool{false, true} {
			if _, ok, err := st.Ladder(stored, v); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
		fromState += time.Since(began)
		began = time.Now()
		for _, samples := range [][]int{append(slices.Clone(fit), val...), fit} {
			if _, _, err := gat.Methods(stored, m, samples, 12); err != nil {
				b.Fatal(err)
			}
		}
		refit += time.Since(began)
	}
	b.Logf("both ladders, %d entities: from the state %v, fitted %v: %.2g of fitting", m.N, fromState/time.Duration(b.N),
		refit/time.Duration(b.N), fromState.Seconds()/refit.Seconds())
}

// BenchmarkWorkersFitTheLadder times the anchor choice (gat.Untrained
// with anchor "auto": every candidate fitted and scored) and the ladder's
// fits on the training rows (gat.Methods) at 1 and 2 workers on a seeded
// panel of 300 series x 156 weeks (season 12), and prints the ratio of 2
// workers to 1 measured in the same run. bench catalogue measures the
// same on its catalogue.
func BenchmarkWorkersFitTheLadder(b *testing.B) {
	m := series.Synthetic(300, 156, 1, 52)
	var took, cpu [2][2]time.Duration
	for range b.N {
		for w := range 2 {
			cfg := gat.DefaultConfig()
			cfg.Season, cfg.Neighbors, cfg.Workers = 12, 10, w+1
			began, cpu0 := time.Now(), processCPU()
			model, err := gat.Untrained(cfg, m)
			if err != nil {
				b.Fatal(err)
			}
			took[w][0] += time.Since(began)
			cpu[w][0] += processCPU() - cpu0
			fit, val, _, err := cfg.Samples(m)
			if err != nil {
				b.Fatal(err)
			}
			began, cpu0 = time.Now(), processCPU()
			if _, _, err := gat.Methods(model, m, append(slices.Clone(fit), val...), 12); err != nil {
				b.Fatal(err)
			}
			took[w][1] += time.Since(began)
			cpu[w][1] += processCPU() - cpu0
		}
	}
	per := time.Duration(b.N)
	b.Logf("%d series: anchor choice 1 worker %v, 2 workers %v (%.2f); ladder fits 1 worker %v, 2 workers %v (%.2f)", m.N,
		took[0][0]/per, took[1][0]/per, took[1][0].Seconds()/took[0][0].Seconds(),
		took[0][1]/per, took[1][1]/per, took[1][1].Seconds()/took[0][1].Seconds())
	b.Logf("process CPU time: anchor choice 1 worker %v, 2 workers %v; ladder fits 1 worker %v, 2 workers %v (CPU over wall time is the cores the process had)",
		cpu[0][0]/per, cpu[1][0]/per, cpu[0][1]/per, cpu[1][1]/per)
}

// processCPU is the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
