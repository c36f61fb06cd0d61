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
	"github.com/mallard/mallard/mlops/series"
)

// strategyRun trains a short seeded run of the default network with
// horizon h and the given strategy on the unemployment data and returns
// its epochs as text (the bits of each epoch's losses) and the model.
func strategyRun(t *testing.T, h int, strategy, anchor string) (string, *gat.Model) {
	text, model, _ := strategyRunLast(t, h, strategy, anchor)
	return text, model
}

// strategyRunLast is strategyRun that also returns the last epoch's network.
func strategyRunLast(t *testing.T, h int, strategy, anchor string) (string, *gat.Model, *gat.Model) {
	t.Helper()
	m := unemployment(t)
	cfg := gat.DefaultConfig()
	cfg.Epochs, cfg.Seed, cfg.Season, cfg.Patience, cfg.Horizon, cfg.Strategy, cfg.Anchor = 8, 1, 12, 3, h, strategy, anchor
	var b strings.Builder
	var last *gat.Model
	model, err := gat.Train(context.Background(), cfg, m, func(e gat.Epoch) error {
		fmt.Fprintf(&b, "%d %x %x %x\n", e.Epoch, bits(e.TrainMSE), bits(e.ValMSE), bits(e.TestMSE))
		last = e.Snapshot()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "kept %d\n", model.Kept)
	return b.String(), model, last
}

// TestStrategiesAtHorizonOneAreRecursive checks that direct and
// multi_output at horizon 1 are the recursive network: the same losses
// bit for bit.
func TestStrategiesAtHorizonOneAreRecursive(t *testing.T) {
	rec, _ := strategyRun(t, 1, gat.StrategyRecursive, gat.AnchorLastValue)
	for _, strategy := range []string{gat.StrategyDirect, gat.StrategyMultiOutput} {
		if got, _ := strategyRun(t, 1, strategy, gat.AnchorLastValue); got != rec {
			t.Errorf("%s at horizon 1:\n%s\nrecursive:\n%s", strategy, got, rec)
		}
	}
}

// TestStrategiesForecastTheirSteps checks direct and multi-output
// networks of 6 steps, anchored to a fitted baseline and to the last
// value: each trains
// otherwise than the recursive one; its validation score is the mean MSE
// over steps 1..6 of its own forecasts from the validation origins; its
// forecast (the last epoch's network's, trained away from the anchor)
// at step 1 is its one-step prediction while steps 2..6 differ
// from feeding that prediction back (recursion); past 6 steps it
// forecasts in blocks, the first block unchanged; and it survives a
// round trip through Marshal with its strategy and forecasts.
func TestStrategiesForecastTheirSteps(t *testing.T) {
	const h = 6
	m := unemployment(t)
	runs := map[string]string{}
	for _, tt := range []struct{ strategy, anchor string }{
		{gat.StrategyMultiOutput, gat.AnchorLastValue}, {gat.StrategyMultiOutput, "theta"}, {gat.StrategyDirect, "theta"},
	} {
		strategy, anchor := tt.strategy, tt.strategy+" "+tt.anchor
		rec, _ := strategyRun(t, h, gat.StrategyRecursive, tt.anchor)
		multi, kept, model := strategyRunLast(t, h, strategy, tt.anchor)
		if multi == rec || multi == runs[tt.anchor] {
			t.Fatalf("%s: trained as recursive or as the other strategy", anchor)
		}
		runs[tt.anchor] = multi
		_, val, _, err := model.Config.Samples(m)
		if err != nil {
			t.Fatal(err)
		}
		f, err := kept.Forecaster()
		if err != nil {
			t.Fatal(err)
		}
		scale := slices.Repeat([]float64{math.NaN()}, m.N)
		var want float64
		for _, st := range gat.Horizons([]baseline.Forecaster{f}, m, gat.Origins(val[0], val[len(val)-1]+1, h), h, scale, nil) {
			want += st.MSE / h
		}
		if s := kept.Score(); math.Abs(s-want) > 1e-12*want {
			t.Errorf("%s: kept epoch's validation MSE %v; its forecasts' mean over steps 1..%d %v", anchor, s, h, want)
		}
		got, err := model.Forecast(m, h)
		if err != nil {
			t.Fatal(err)
		}
		fed := recurse(t, model, m, h)
		if d := maxDiff(got[:1], fed[:1]); d > 1e-12 {
			t.Errorf("%s: step 1 differs from the one-step prediction by %g", anchor, d)
		}
		if d := maxDiff(got[1:], fed[1:]); d < 1e-9 {
			t.Errorf("%s: steps 2..%d are the recursion's (largest difference %g)", anchor, h, d)
		}
		long, err := model.Forecast(m, 2*h+1)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(long[:h], got); d != 0 {
			t.Errorf("%s: the first block of a %d-step forecast differs from the %d-step forecast by %g", anchor, 2*h+1, h, d)
		}
		data, err := model.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := gat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		again, err := back.Forecast(m, 2*h+1)
		if err != nil {
			t.Fatal(err)
		}
		if back.Config.Strategy != strategy || maxDiff(again, long) != 0 {
			t.Errorf("%s: after a round trip strategy %q, forecasts differ by %g", anchor, back.Config.Strategy, maxDiff(again, long))
		}
	}
}

// recurse forecasts steps rows past m by feeding each one-step
// prediction back as the next row.
func recurse(t *testing.T, model *gat.Model, m series.Matrix, steps int) [][]float64 {
	t.Helper()
	buf := slices.Clone(m.Values)
	out := baseline.Rows(steps, m.N)
	for k := range steps {
		x := series.Matrix{T: m.T + k, N: m.N, Values: buf}
		if err := model.Predict(x, x.T, out[k]); err != nil {
			t.Fatal(err)
		}
		buf = append(buf, out[k]...)
	}
	return out
}

func maxDiff(a, b [][]float64) float64 {
	var d float64
	for k := range a {
		for i := range a[k] {
			d = max(d, math.Abs(a[k][i]-b[k][i]))
		}
	}
	return d
}

// TestStrategyRefused checks that Validate names the strategies accepted.
func TestStrategyRefused(t *testing.T) {
	cfg := gat.DefaultConfig()
	cfg.Strategy = "x"
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), `"x"`) || !strings.Contains(err.Error(), "[recursive direct multi_output]") {
		t.Errorf("strategy x: %v, want an error naming it and the strategies", err)
	}
}

// TestStrategyArtifact checks that an artifact keeps a multi-output
// model's strategy and forecasts through Marshal and UnmarshalArtifact,
// and that an artifact written before strategies (no strategy in its
// configuration) loads as a recursive model that forecasts as before.
func TestStrategyArtifact(t *testing.T) {
	m := unemployment(t)
	names := make([]string, m.N)
	for i := range names {
		names[i] = fmt.Sprint("e", i)
	}
	for _, tt := range []struct{ strategy, want string }{{gat.StrategyMultiOutput, gat.StrategyMultiOutput}, {"", ""}} {
		_, _, model := strategyRunLast(t, 4, tt.strategy, gat.AnchorLastValue)
		span := model.Config.Span()
		a := &gat.Artifact{Model: model, Entities: names, Tail: m.Values[(m.T-span)*m.N:], Epoch: model.Kept}
		data, err := a.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if tt.strategy == "" && strings.Contains(string(data), `"strategy"`) {
			t.Fatalf("a recursive model stored with a strategy: an old artifact would differ")
		}
		back, err := gat.UnmarshalArtifact(data)
		if err != nil {
			t.Fatal(err)
		}
		want, err := model.Forecast(m, 9)
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.Model.Forecast(m, 9)
		if err != nil {
			t.Fatal(err)
		}
		if back.Model.Config.Strategy != tt.want || maxDiff(got, want) != 0 {
			t.Errorf("strategy %q: loaded with %q, forecasts differ by %g", tt.strategy, back.Model.Config.Strategy, maxDiff(got, want))
		}
		if tt.strategy == "" {
			if d := maxDiff(got, recurse(t, back.Model, m, 9)); d > 1e-12 {
				t.Errorf("an artifact without a strategy does not forecast recursively (difference %g)", d)
			}
		}
	}
}

// TestCombineFixedRefused checks that Validate names the fixed
// combinations CombineFixed accepts.
func TestCombineFixedRefused(t *testing.T) {
	cfg := gat.DefaultConfig()
	cfg.CombineFixed = "ets_theta"
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), `combine_fixed "ets_theta"`) || !strings.Contains(err.Error(), "[ets_arima_theta ets_arima_theta_median]") {
		t.Errorf("combine_fixed ets_theta: %v, want an error naming it and the combinations", err)
	}
}
