package gat_test

import (
	"context"
	"testing"

	"github.com/mallard/mallard/mlops/gat"
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
