package gat_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/gat"
)

func bits(v float64) uint64 { return math.Float64bits(v) }

// TestHorizonOneIsOneStep checks that horizon 1 trains as before
// horizons existed: exactly as horizon 0 (models stored before them), the
// same losses bit for bit and the same kept epoch, and every epoch's
// validation MSE is the one-step MSE of that epoch's network over the
// validation samples. (No test pins the bits themselves, see
// docs/development.md; against the code before horizons, commit 2cdf54b
// and main at 8bbaadf, this run's bits were compared by hand, equal.)
func TestHorizonOneIsOneStep(t *testing.T) {
	m := unemployment(t)
	zero, _ := horizonRun(t, 0)
	one, _ := horizonRun(t, 1)
	if zero != one {
		t.Errorf("horizon 1:\n%s\nhorizon 0:\n%s", one, zero)
	}
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed, cfg.Season, cfg.Horizon = 3, 1, 12, 1
	_, val, _, err := cfg.Samples(m)
	if err != nil {
		t.Fatal(err)
	}
	_, err = gat.Train(context.Background(), cfg, m, func(e gat.Epoch) error {
		want, err := e.Snapshot().MSE(m, val)
		if err != nil || math.Abs(e.ValMSE-want) > 1e-13*want {
			t.Errorf("epoch %d: val_mse %v, the one-step MSE %v (%v)", e.Epoch, e.ValMSE, want, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHorizonValidatesRecursively checks that with horizon 12 the
// validation MSE of the kept epoch is the mean over steps 1..12 of the
// MSE of the model's own recursive forecasts (Model.Forecaster) from the
// validation origins, and that it differs from the one-step figure.
func TestHorizonValidatesRecursively(t *testing.T) {
	m := unemployment(t)
	one, _ := horizonRun(t, 1)
	got, model := horizonRun(t, 12)
	if got == one || model.Config.Horizon != 12 {
		t.Fatalf("horizon 12 trained as horizon 1 (config horizon %d)", model.Config.Horizon)
	}
	_, val, _, err := model.Config.Samples(m)
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Forecaster()
	if err != nil {
		t.Fatal(err)
	}
	scale := slices.Repeat([]float64{math.NaN()}, m.N)
	var want float64
	for _, st := range gat.Horizons([]baseline.Forecaster{f}, m, gat.Origins(val[0], val[len(val)-1]+1, 12), 12, scale, nil) {
		want += st.MSE / 12
	}
	oneStep, err := model.MSE(m, val)
	if err != nil {
		t.Fatal(err)
	}
	if s := model.Score(); math.Abs(s-want) > 1e-12*want || s == oneStep {
		t.Errorf("kept epoch's validation MSE %v; recursive 12-step mean %v, one-step %v", s, want, oneStep)
	}
}

// TestNoGraphAttendsToItself checks that the network without the graph
// has self loops only: each target's attention is all on itself.
func TestNoGraphAttendsToItself(t *testing.T) {
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed, cfg.Season, cfg.Anchor, cfg.NoGraph = 3, 2, 12, gat.AnchorLastValue, true
	model, err := gat.Train(context.Background(), cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, test, _ := cfg.Samples(m)
	edges, err := model.Attention(m, test)
	if err != nil {
		t.Fatal(err)
	}
	if len(edges) != m.N {
		t.Fatalf("%d edges, want %d self loops", len(edges), m.N)
	}
	for _, e := range edges {
		if e.Source != e.Target || math.Abs(e.Weight-1) > 1e-12 {
			t.Errorf("edge %+v: want a self loop of weight 1", e)
		}
	}
	// Beside the network with the graph it is gat_no_graph; as the
	// version's network it is gat too, and the graph's network gat_graph.
	graph := cfg
	graph.NoGraph = false
	with, err := gat.Train(context.Background(), graph, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	fit, _, _, _ := cfg.Samples(m)
	for _, tt := range []struct {
		model *gat.Model
		want  string
	}{{gat.WithSibling(with, model), "gat gat_no_graph last_value"}, {gat.WithSibling(model, with), "gat gat_no_graph gat_graph last_value"}} {
		fs, _, err := gat.Methods(tt.model, m, fit, 12)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range fs {
			names = append(names, f.Name())
		}
		if got := strings.Join(names, " "); !strings.HasPrefix(got, tt.want+" ") {
			t.Errorf("methods %s, want them to start %s", got, tt.want)
		}
	}
}

// horizonRun trains a short seeded run of the default network with
// horizon h on the unemployment data and returns its epochs as text
// (the bits of each epoch's training, validation and test MSE) and the model.
func horizonRun(t *testing.T, h int) (string, *gat.Model) {
	t.Helper()
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed, cfg.Season, cfg.Patience, cfg.Horizon = 12, 1, 12, 3, h
	var b strings.Builder
	model, err := gat.Train(context.Background(), cfg, m, func(e gat.Epoch) error {
		fmt.Fprintf(&b, "%d %x %x %x\n", e.Epoch, bits(e.TrainMSE), bits(e.ValMSE), bits(e.TestMSE))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "kept %d\n", model.Kept)
	return b.String(), model
}
