package storage_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mallard/mallard/storage"
)

// TestReopenAfterInvalidation invalidates a database for real (DuckDB's
// debug_checkpoint_abort makes CHECKPOINT fail with a FATAL error) and
// checks that Reopen replaces it: only once, running the OnReopen hooks,
// with the committed rows, and with the old connections marked stale.
func TestReopenAfterInvalidation(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: filepath.Join(t.TempDir(), "inv.duckdb")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	hooks := 0
	db.OnReopen(func(context.Context) error { hooks++; return nil })
	for _, q := range []string{"CREATE TABLE t (i integer)", "INSERT INTO t VALUES (1), (2)"} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if reopened, err := db.Reopen(ctx); reopened || err != nil {
		t.Fatalf("Reopen of a healthy database: %v, %v; want false, nil", reopened, err)
	}
	old, err := db.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if _, err := db.SQL().ExecContext(ctx, "SET GLOBAL debug_checkpoint_abort = 'before_header'"); err != nil {
		t.Fatal(err)
	}
	_, err = db.SQL().ExecContext(ctx, "CHECKPOINT")
	if !storage.IsInvalidated(err) {
		t.Fatalf("CHECKPOINT with debug_checkpoint_abort: %v; want DuckDB's FATAL error", err)
	}
	if err := old.Exec(ctx, "SELECT 1"); !storage.IsInvalidated(err) {
		t.Fatalf("a statement on the invalidated database: %v; want it marked invalidated", err)
	}
	if reopened, err := db.Reopen(ctx); !reopened || err != nil {
		t.Fatalf("Reopen: %v, %v; want true, nil", reopened, err)
	}
	if reopened, err := db.Reopen(ctx); reopened || err != nil {
		t.Fatalf("a second Reopen: %v, %v; want false, nil", reopened, err)
	}
	if hooks != 1 {
		t.Errorf("the OnReopen hook ran %d times, want once", hooks)
	}
	if !old.Stale() {
		t.Error("a connection to the invalidated instance is not stale")
	}
	fresh, err := db.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if fresh.Stale() {
		t.Error("a connection to the new instance is stale")
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows after Reopen: %d, %v; want 2", n, err)
	}
	if err := fresh.Exec(ctx, "INSERT INTO t VALUES (3)"); err != nil {
		t.Errorf("a write after Reopen: %v", err)
	}
}
