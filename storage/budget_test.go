package storage_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "2GB", want: 2e9},
		{in: "512 MiB", want: 512 << 20},
		{in: "1.5 GiB", want: 3 << 29},
		{in: "100000B", want: 100000},
		{in: "7kb", want: 7000},
		{in: "lots", bad: true},
		{in: "2 parsecs", bad: true},
	} {
		got, err := storage.ParseBytes(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d (error %v)", c.in, got, err, c.want, c.bad)
		}
	}
}

// duckDBLimit is DuckDB's memory_limit now, in bytes (as DuckDB shows it, rounded).
func duckDBLimit(t *testing.T, db *storage.DB) int64 {
	t.Helper()
	var shown string
	if err := db.SQL().QueryRow("SELECT current_setting('memory_limit')").Scan(&shown); err != nil {
		t.Fatal(err)
	}
	n, err := storage.ParseBytes(shown)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBudgetSharesTheLimitWithDuckDB: a reservation lowers DuckDB's
// memory_limit by its size and its release raises it back; one that would
// leave DuckDB less than its quarter fails with 53200, naming the setting
// and the sizes, and changes nothing.
func TestBudgetSharesTheLimitWithDuckDB(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath, MemoryLimit: "1GB"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	b := db.Budget()
	if b.Limit() != 1e9 {
		t.Fatalf("limit %d, want 1e9", b.Limit())
	}
	near := func(got, want int64) bool { return got > want-want/50 && got < want+want/50 }
	release, err := b.Reserve(ctx, 600e6, "the first buffer")
	if err != nil {
		t.Fatal(err)
	}
	if got := duckDBLimit(t, db); !near(got, 400e6) {
		t.Errorf("DuckDB's limit with 600 MB reserved is %d, want about 400e6", got)
	}
	_, err = b.Reserve(ctx, 200e6, "the second buffer")
	var e *sqlstate.Error
	if !errors.As(err, &e) || e.Code != sqlstate.OutOfMemory {
		t.Fatalf("a reservation past the limit gave %v, want 53200", err)
	}
	for _, part := range []string{"the second buffer", "190.7 MiB", "memory_limit 1GB", "953.7 MiB", "572.2 MiB"} {
		if !strings.Contains(e.Message, part) {
			t.Errorf("message %q does not name %q", e.Message, part)
		}
	}
	if b.Reserved() != 600e6 {
		t.Errorf("the failed reservation left %d reserved, want 600e6", b.Reserved())
	}
	release()
	release() // a second call does nothing
	if b.Reserved() != 0 {
		t.Errorf("released, %d stay reserved", b.Reserved())
	}
	if got := duckDBLimit(t, db); !near(got, 1e9) {
		t.Errorf("DuckDB's limit after the release is %d, want about 1e9", got)
	}
}
