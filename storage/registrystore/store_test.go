package registrystore_test

import (
	"context"
	"maps"
	"testing"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/registrystore"
)

// TestCountsForMetrics records two runs, one of which starts a version
// and records two epochs, and checks the counts the metrics endpoint
// reports: runs by status, epochs recorded, and DuckDB's memory by tag.
func TestCountsForMetrics(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	s := registrystore.New(db)
	if err := s.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, func(tx *registrystore.Tx) error {
		if _, err := tx.QueueRun(ctx, registrystore.NewRun{Model: "a", Kind: "gat", Epochs: 2}); err != nil {
			return err
		}
		id, err := tx.QueueRun(ctx, registrystore.NewRun{Model: "b", Kind: "gat", Epochs: 2})
		if err != nil {
			return err
		}
		ref := mlops.Ref{Name: "b", Version: 1}
		if err := tx.StartVersion(ctx, registrystore.NewVersion{Ref: ref, Kind: "gat", RunID: id, Hyperparameters: "{}"}); err != nil {
			return err
		}
		for epoch := 1; epoch <= 2; epoch++ {
			if err := tx.AddEpoch(ctx, id, registrystore.Metric{Epoch: epoch, TrainLoss: 1, TestLoss: 2}, 1, 2); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := s.RunsByStatus(ctx)
	if want := map[string]int64{"queued": 1, "training": 1}; err != nil || !maps.Equal(runs, want) {
		t.Errorf("RunsByStatus = %v, %v; want %v", runs, err, want)
	}
	if n, err := s.EpochsRecorded(ctx); err != nil || n != 2 {
		t.Errorf("EpochsRecorded = %d, %v; want 2", n, err)
	}
	use, err := db.MemoryUse(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]bool{}
	for _, u := range use {
		tags[u.Tag] = true
	}
	if !tags["BASE_TABLE"] {
		t.Errorf("MemoryUse has no BASE_TABLE tag: %+v", use)
	}
}
