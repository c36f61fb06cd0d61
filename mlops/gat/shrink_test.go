package gat_test

import (
	"context"
	"math"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// oneStep is f's one-step forecasts of rows, flattened row by row.
func oneStep(f baseline.Forecaster, m series.Matrix, rows []int) []float64 {
	var out []float64
	dst := baseline.Rows(1, m.N)
	for _, t := range rows {
		f.Forecast(m, t, dst)
		out = append(out, dst[0]...)
	}
	return out
}

// TestKeepShrunkCombines trains the same seeded network under "best"
// and "shrunk" on noise, where the epoch "best" keeps beats its anchor
// on validation by chance: the shrunk network's one-step forecasts of
// every row are the untrained network's (its anchor alone) plus one
// weight α in (0, 1) times the kept network's departure from them, and
// its validation MSE, on which α is fitted, is no higher than either's.
func TestKeepShrunkCombines(t *testing.T) {
	m := noise(2, 100, 4)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Patience = 60, 0
	models := map[string]*gat.Model{}
	for _, rule := range []string{gat.KeepBest, gat.KeepShrunk} {
		cfg.KeepNetwork = rule
		model, err := gat.Train(context.Background(), cfg, m, nil)
		if err != nil {
			t.Fatalf("keep_network %q: %v", rule, err)
		}
		models[rule] = model
	}
	cfg.KeepNetwork = gat.KeepBest
	anchor, err := gat.Untrained(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	fit, val, test, err := cfg.Samples(m)
	if err != nil {
		t.Fatal(err)
	}
	rows := append(append(fit, val...), test...)
	fc := map[string][]float64{}
	for name, model := range map[string]*gat.Model{"anchor": anchor, "best": models[gat.KeepBest], "shrunk": models[gat.KeepShrunk]} {
		f, err := model.Forecaster()
		if err != nil {
			t.Fatal(err)
		}
		fc[name] = oneStep(f, m, rows)
	}
	var num, den float64 // the α that fits the shrunk forecasts
	for k, a := range fc["anchor"] {
		c := fc["best"][k] - a
		num, den = num+c*(fc["shrunk"][k]-a), den+c*c
	}
	alpha := num / den
	t.Logf("kept epoch %d, α %.4f; validation MSE best %.5f, shrunk %.5f", models[gat.KeepBest].Kept, alpha,
		models[gat.KeepBest].Score(), models[gat.KeepShrunk].Score())
	if models[gat.KeepBest].Kept == 0 || alpha <= 0.01 || alpha >= 0.99 {
		t.Fatalf("kept epoch %d, α %v: the test needs data where the trained network's correction is partly shrunk", models[gat.KeepBest].Kept, alpha)
	}
	for k, a := range fc["anchor"] {
		if want := a + alpha*(fc["best"][k]-a); math.Abs(fc["shrunk"][k]-want) > 1e-9 {
			t.Fatalf("forecast %d: shrunk %v, want anchor %v + %v (best %v − anchor)", k, fc["shrunk"][k], a, alpha, fc["best"][k])
		}
	}
	anchorVal := baseline.MSE(mustForecaster(t, anchor), m, val, nil)
	if s := models[gat.KeepShrunk].Score(); s > models[gat.KeepBest].Score()+1e-12 || s > anchorVal+1e-12 {
		t.Errorf("shrunk validation MSE %v above best's %v or the anchor's %v", s, models[gat.KeepBest].Score(), anchorVal)
	}
}

func mustForecaster(t *testing.T, model *gat.Model) baseline.Forecaster {
	t.Helper()
	f, err := model.Forecaster()
	if err != nil {
		t.Fatal(err)
	}
	return f
}
