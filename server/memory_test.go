//go:build duckdb_arrow

package server

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/mallard/mallard/storage"
)

// TestGoHeapFollowsBudget: with a heap margin the Go runtime's soft
// memory limit is the margin plus what is reserved, and follows each
// reservation and release.
func TestGoHeapFollowsBudget(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	ctx := context.Background()
	const margin = 300 << 20
	s, err := Open(ctx, Config{DB: storage.Config{Path: storage.MemoryPath, MemoryLimit: "2GB"}, GoHeapMargin: margin})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if got := debug.SetMemoryLimit(-1); got != margin {
		t.Fatalf("Go's memory limit %d with nothing reserved, want the margin %d", got, int64(margin))
	}
	release, err := s.DB.Budget().Reserve(ctx, 100<<20, "a test's buffer")
	if err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != margin+100<<20 {
		t.Errorf("Go's memory limit %d with 100 MiB reserved, want %d", got, int64(margin+100<<20))
	}
	release()
	if got := debug.SetMemoryLimit(-1); got != margin {
		t.Errorf("Go's memory limit %d after the release, want %d", got, int64(margin))
	}
}

// TestGoHeapUntouchedWithoutMargin: a server opened without a margin
// leaves the runtime's limit as it was.
func TestGoHeapUntouchedWithoutMargin(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	ctx := context.Background()
	s, err := Open(ctx, Config{DB: storage.Config{Path: storage.MemoryPath, MemoryLimit: "2GB"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if _, err := s.DB.Budget().Reserve(ctx, 1<<20, "a test's buffer"); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("Go's memory limit %d, was %d", got, before)
	}
}
