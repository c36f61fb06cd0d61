package gat_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// TestKeepSignificantLeavesNoise trains on noise, where a trained epoch
// can only beat the first network on validation by chance: "best" keeps
// such an epoch, "significant" keeps the first network (epoch 0).
func TestKeepSignificantLeavesNoise(t *testing.T) {
	m := noise(2, 100, 4)
	kept := map[string]int{}
	for _, rule := range gat.KeepRules() {
		cfg := gat.DefaultConfig()
		cfg.Epochs, cfg.Patience, cfg.KeepNetwork = 60, 0, rule
		model, err := gat.Train(context.Background(), cfg, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		kept[rule] = model.Kept
	}
	t.Logf("kept epochs: %v", kept)
	if kept[gat.KeepBest] == 0 {
		t.Fatalf("best kept epoch 0 on noise: the test needs data where chance favours a trained epoch")
	}
	if kept[gat.KeepSignificant] != 0 {
		t.Errorf("significant kept epoch %d on noise, want 0 (the first network)", kept[gat.KeepSignificant])
	}
}

// TestKeepOneSELeavesNoise trains on noise, where "best" keeps a trained
// epoch by chance: "one_se" and "one_se_horizons" (season 4, so its test
// over steps 1..4 runs too) keep the first network (epoch 0), with one
// worker and with two (which gather the rows' differentials).
func TestKeepOneSELeavesNoise(t *testing.T) {
	m := noise(2, 100, 4)
	kept := map[string]int{}
	for _, rule := range []string{gat.KeepBest, gat.KeepOneSE, gat.KeepOneSE + "/2", gat.KeepOneSEHorizons, gat.KeepOneSEHorizons + "/2"} {
		cfg := gat.DefaultConfig()
		cfg.Epochs, cfg.Patience, cfg.KeepNetwork, cfg.Season = 60, 0, rule, 4
		if name, two := strings.CutSuffix(rule, "/2"); two {
			cfg.KeepNetwork, cfg.Workers = name, 2
		}
		model, err := gat.Train(context.Background(), cfg, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		kept[rule] = model.Kept
	}
	t.Logf("kept epochs: %v", kept)
	if kept[gat.KeepBest] == 0 {
		t.Fatalf("best kept epoch 0 on noise: the test needs data where chance favours a trained epoch")
	}
	for rule, epoch := range kept {
		if rule != gat.KeepBest && epoch != 0 {
			t.Errorf("%s kept epoch %d on noise, want 0 (the first network)", rule, epoch)
		}
	}
}

// leader is a panel where the graph clearly helps: entities 1 and 3
// repeat entities 0 and 2, independent noise, one row later, so a
// follower's next value is its leader's last one, which no entity's own
// past and no anchor holds.
func leader(seed uint64, rows int) series.Matrix {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	m := series.Matrix{T: rows, N: 4, Values: make([]float64, rows*4)}
	for t := range rows {
		for _, i := range []int{0, 2} {
			m.Values[t*4+i] = rng.NormFloat64()
			if t > 0 {
				m.Values[t*4+i+1] = m.Values[(t-1)*4+i] + 0.05*rng.NormFloat64()
			}
		}
	}
	return m
}

// TestKeepOneSEKeepsAClearGain trains where the network clearly beats its
// anchor: "one_se" keeps what "best" keeps, a trained epoch, and the two
// models forecast the test rows bit for bit alike (the rule does not fire).
func TestKeepOneSEKeepsAClearGain(t *testing.T) {
	m := leader(3, 200)
	models := map[string]*gat.Model{}
	for _, rule := range []string{gat.KeepBest, gat.KeepOneSE} {
		cfg := gat.DefaultConfig()
		cfg.Epochs, cfg.Anchor, cfg.KeepNetwork = 60, gat.AnchorLastValue, rule
		model, err := gat.Train(context.Background(), cfg, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		models[rule] = model
	}
	best, onese := models[gat.KeepBest], models[gat.KeepOneSE]
	first := untrainedScore(t, best.Config, m)
	t.Logf("kept epoch %d; validation MSE %.4f, epoch 0's %.4f", best.Kept, best.Score(), first)
	if best.Score() > 0.95*first {
		t.Fatalf("the network's validation MSE %.4f is not clearly below epoch 0's %.4f: the panel does not test a clear gain", best.Score(), first)
	}
	if best.Kept == 0 || onese.Kept != best.Kept {
		t.Fatalf("kept epochs: best %d, one_se %d; want the same trained epoch", best.Kept, onese.Kept)
	}
	fb, err := best.Forecaster()
	if err != nil {
		t.Fatal(err)
	}
	fo, err := onese.Forecaster()
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([][]float64, 1), make([][]float64, 1)
	a[0], b[0] = make([]float64, m.N), make([]float64, m.N)
	for origin := 150; origin < m.T; origin++ {
		fb.Forecast(m, origin, a)
		fo.Forecast(m, origin, b)
		if !slices.Equal(a[0], b[0]) {
			t.Fatalf("row %d: best forecasts %v, one_se %v", origin, a[0], b[0])
		}
	}
}

// untrainedScore is the one-step validation MSE of cfg's untrained
// network (epoch 0, the anchor alone) on m.
func untrainedScore(t *testing.T, cfg gat.Config, m series.Matrix) float64 {
	t.Helper()
	u, err := gat.Untrained(cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	f, err := u.Forecaster()
	if err != nil {
		t.Fatal(err)
	}
	_, val, _, err := cfg.Samples(m)
	if err != nil {
		t.Fatal(err)
	}
	return baseline.MSE(f, m, val, nil)
}
