package catalog_test

import (
	"context"
	"testing"
	"time"

	"github.com/mallard/mallard/planner/catalog"
	"github.com/mallard/mallard/storage"
)

func TestInstallTiming(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	for _, q := range catalog.Statements() {
		start := time.Now()
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", firstLine(q), err)
		}
		t.Logf("%v %s", time.Since(start), firstLine(q))
	}
}
