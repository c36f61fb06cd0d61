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

// TestHorizonOneIsBitIdentical checks that horizon 1 (and 0, that of
// models stored before horizons) trains exactly as before: the same
// losses, bit for bit, and the same kept epoch.
func TestHorizonOneIsBitIdentical(t *testing.T) {
	for _, h := range []int{0, 1} {
		if got, _ := horizonRun(t, h); got != goldenOneStep {
			t.Errorf("horizon %d:\n%s\nwant\n%s", h, got, goldenOneStep)
		}
	}
}

// TestHorizonValidatesRecursively checks that with horizon 12 the
// validation MSE of the kept epoch is the mean over steps 1..12 of the
// MSE of the model's own recursive forecasts (Model.Forecaster) from the
// validation origins, and that it differs from the one-step figure.
func TestHorizonValidatesRecursively(t *testing.T) {
	m := unemployment(t)
	got, model := horizonRun(t, 12)
	if got == goldenOneStep || model.Config.Horizon != 12 {
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

// goldenOneStep are the losses (bits) and kept epoch of a seeded run on
// the unemployment data, recorded with the code before horizons existed
// (commit 2cdf54b): validation one step ahead.
const goldenOneStep = `1 3f9826ea79b3da8d 3f97d0e5188ce1ae 3f9aae866258fa67
2 3f9824d1954bc649 3f97ce5fb2f263d5 3f9aa1a5542b32e7
3 3f982112113d34c0 3f97cb1ac6562fed 3f9a81eff5826ddb
4 3f981d136fc90cec 3f97c74eba4c20b9 3f9a5fba600f783d
5 3f98193782cda048 3f97c36b559cdd5f 3f9a3f78402b9ed7
6 3f981559c2c2e1f4 3f97bf0324e5a9d2 3f9a224f98189efd
7 3f98113667c25b0f 3f97b9bd9ad58874 3f9a095cd80a8d80
8 3f980d1941ac9373 3f97b4965a925314 3f99ebc067ae5375
9 3f9808cee887fabf 3f97ae9088ceb6a9 3f99d663bd9459c7
10 3f98048fa4bce1c8 3f97a85546350d65 3f99c34b0c0c4d2d
11 3f980073aa27346d 3f97a2b81f76c74d 3f99b2c57004a475
12 3f97fc1481ff3089 3f979c1f1c124576 3f99a71729005dc9
kept 12
`

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
