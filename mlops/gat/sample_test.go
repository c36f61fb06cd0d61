package gat_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
)

// TestCompleteGraphReused checks that a model without a neighbour limit,
// whose samples reuse one edge list and only update its attributes, scores
// exactly as with a limit of n-1, which keeps every edge but lists them
// anew for each sample.
func TestCompleteGraphReused(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := series.Matrix{T: 40, N: 6, Values: make([]float64, 40*6)}
	for i := range m.Values {
		m.Values[i] = rng.NormFloat64()
	}
	cfg := gat.DefaultConfig()
	cfg.Epochs = 2
	model, err := gat.Train(context.Background(), cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	samples := series.Samples(m, cfg.Span())
	all, err := model.MSE(m, samples)
	if err != nil {
		t.Fatal(err)
	}
	limited := *model
	limited.Config.Neighbors = m.N - 1
	got, err := limited.MSE(m, samples)
	if err != nil || got != all {
		t.Errorf("MSE with every edge listed per sample = %v (%v), with one list reused %v", got, err, all)
	}
}
