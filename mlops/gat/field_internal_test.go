package gat

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/series"
)

// TestForecastEntitiesEqualsForecast: on a seeded panel of 60 entities, a
// network given random weights (so that every edge changes the output; a
// briefly trained anchored network is nearly its anchor) forecasts one
// entity, and three, as the whole forecast does, to 1e-9, with a
// neighbour limit (recursive at 1 and 4 steps, multi-output within and
// past its horizon, direct), with the complete graph and without a
// graph, anchored to fitted baselines of several kinds; and with the
// neighbour limit the last pass's field is smaller than the panel, so the
// test reads the restricted network.
func TestForecastEntitiesEqualsForecast(t *testing.T) {
	m := series.Synthetic(60, 72, 3, 12)
	cases := []struct {
		name               string
		neighbors, horizon int
		anchor, strategy   string
		noGraph            bool
		steps              []int
	}{
		{"k=2 recursive ets", 2, 1, "ets", StrategyRecursive, false, []int{1, 4}},
		{"k=2 recursive last_value", 2, 1, AnchorLastValue, StrategyRecursive, false, []int{1, 3}},
		{"k=2 multi_output theta", 2, 3, "theta", StrategyMultiOutput, false, []int{3, 5}},
		{"k=2 direct drift", 2, 2, "drift", StrategyDirect, false, []int{2}},
		{"complete graph", 0, 1, AnchorLastValue, StrategyRecursive, false, []int{2}},
		{"no graph arima", 2, 1, "arima", StrategyRecursive, true, []int{3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Epochs, cfg.Seed, cfg.Season, cfg.Neighbors, cfg.Horizon = 1, 1, 12, c.neighbors, c.horizon
			cfg.Anchor, cfg.Strategy, cfg.NoGraph = c.anchor, c.strategy, c.noGraph
			model, err := Train(context.Background(), cfg, m, nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			for _, w := range model.Weights {
				for j := range w {
					w[j] = 0.4 * rng.NormFloat64()
				}
			}
			if c.neighbors > 0 && !c.noGraph {
				if nodes, _ := model.field(m, []int{7}); len(nodes) >= m.N {
					t.Fatalf("the field of entity 7 has %d nodes of %d", len(nodes), m.N)
				}
			}
			for _, steps := range c.steps {
				want, err := model.Forecast(m, steps)
				if err != nil {
					t.Fatal(err)
				}
				for _, entities := range [][]int{{7}, {41, 3, 41, 29}} {
					got, err := model.ForecastEntities(m, steps, entities)
					if err != nil {
						t.Fatal(err)
					}
					if err := sameColumns(got, want, entities); err != nil {
						t.Errorf("%d steps, entities %v: %v", steps, entities, err)
					}
				}
			}
		})
	}
}

// sameColumns reports the first value of columns cols where got and want
// differ by more than 1e-9 relative.
func sameColumns(got, want [][]float64, cols []int) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	for k := range want {
		for _, i := range cols {
			if d := math.Abs(got[k][i] - want[k][i]); !(d <= 1e-9*max(1, math.Abs(want[k][i]))) {
				return fmt.Errorf("step %d entity %d: %v, want %v", k+1, i, got[k][i], want[k][i])
			}
		}
	}
	return nil
}
