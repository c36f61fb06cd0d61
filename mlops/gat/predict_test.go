package gat_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// TestKeptPredictions checks that the predictions training keeps for the
// model it returns, which Evaluate and the report read, are bit for bit
// those of running the model again over every sample (on a copy of the
// data, which the kept ones do not serve): with validation (the best
// epoch's) and without (the last epoch's), with two workers, and with a
// neighbour limit.
func TestKeptPredictions(t *testing.T) {
	m := series.Synthetic(30, 120, 2, 24)
	for _, tt := range []struct {
		name       string
		validation float64
		neighbors  int
	}{{"validation", 0.15, 0}, {"no validation", 0, 0}, {"neighbours", 0.15, 4}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := gat.DefaultConfig()
			cfg.Epochs, cfg.Workers, cfg.ValidationFraction, cfg.Neighbors, cfg.LR = 4, 2, tt.validation, tt.neighbors, 0.05
			if tt.validation == 0 {
				cfg.Anchor = gat.AnchorLastValue
			}
			model, err := gat.Train(context.Background(), cfg, m, nil)
			if err != nil {
				t.Fatal(err)
			}
			rows := series.Samples(m, cfg.Span())
			kept, err := model.PredictRows(m, rows)
			if err != nil {
				t.Fatal(err)
			}
			copied := series.Matrix{T: m.T, N: m.N, Values: slices.Clone(m.Values)}
			again, err := model.PredictRows(copied, rows)
			if err != nil {
				t.Fatal(err)
			}
			for k := range rows {
				if !slices.Equal(kept[k], again[k]) {
					t.Fatalf("row %d: kept predictions %v, computed again %v", rows[k], kept[k][:3], again[k][:3])
				}
			}
		})
	}
}
