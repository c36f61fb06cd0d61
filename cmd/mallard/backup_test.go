//go:build duckdb_arrow

package main

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/internal/testserver"
)

// TestBackupWhileWriting takes mallard.backup while four clients insert
// rows, each in its own committed statement, and then serves the copy
// with a second server: every row committed before the backup began is
// in it, a sequence goes on from where it was, the model trained before
// forecasts, and the copy is no larger than what was committed when the
// backup ended. Bad input fails with its SQLSTATE and the server serves
// on.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	if err := os.Mkdir(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	server := startMallard(t, filepath.Join(dir, "live.duckdb"), "--data-dir", filepath.Dir(testserver.UnemploymentCSV(t)), "--data-dir", backups)
	conn := server.connect(t)
	execAll(t, conn, testserver.Unemployment(t)...)
	execAll(t, conn,
		"SELECT count(*) FROM train_gat('uw', model := 'kept', epochs := 2, hidden := [4, 4], scaler := 'u')",
		"CREATE SEQUENCE ids",
		"CREATE TABLE events (id BIGINT PRIMARY KEY, writer INT)")

	// Writers insert until told to stop; committed[w] is the last id
	// writer w has seen committed.
	var committed [4]atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range committed {
		writer := server.connect(t)
		wg.Go(func() {
			for i := int64(1); ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id := int64(w)*1_000_000_000 + i
				if _, err := writer.Exec(ctx, "INSERT INTO events VALUES ($1, $2)", id, w); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				committed[w].Store(id)
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	var before [4]int64
	for w := range before {
		before[w] = committed[w].Load()
	}
	if _, err := conn.Exec(ctx, "SELECT nextval('ids'), nextval('ids')"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(backups, "copy.duckdb")
	var got string
	if err := conn.QueryRow(ctx, "SELECT mallard.backup($1)", file).Scan(&got); err != nil || got != file {
		t.Fatalf("backup: %q (%v)", got, err)
	}
	var after [4]int64
	for w := range after {
		after[w] = committed[w].Load()
	}
	time.Sleep(200 * time.Millisecond) // writes go on after the backup
	close(stop)
	wg.Wait()
	for w := range before {
		if before[w] == 0 {
			t.Fatalf("writer %d committed nothing before the backup", w)
		}
	}

	for _, tt := range []struct{ name, file, code string }{
		{"the file exists", file, "58P02"},
		{"a relative path", filepath.Join("sub", "copy.duckdb"), "22023"},
		{"outside --data-dir", filepath.Join(dir, "elsewhere.duckdb"), "42501"},
	} {
		if _, err := conn.Exec(ctx, "SELECT mallard.backup($1)", tt.file); sqlState(err) != tt.code {
			t.Errorf("%s: %v, want SQLSTATE %s", tt.name, err, tt.code)
		}
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM events").Scan(&n); err != nil || n == 0 {
		t.Fatalf("the live server after the bad backups: %d rows (%v)", n, err)
	}

	copied := startMallard(t, file)
	cc := copied.connect(t)
	for w := range before {
		var have, most int64
		if err := cc.QueryRow(ctx, "SELECT count(*), max(id) FROM events WHERE writer = $1 AND id <= $2", w, before[w]).Scan(&have, &most); err != nil {
			t.Fatal(err)
		}
		if want := before[w] - int64(w)*1_000_000_000; have != want || most != before[w] {
			t.Errorf("writer %d: the copy has %d of the %d rows committed before the backup (last %d, want %d)", w, have, want, most, before[w])
		}
		if err := cc.QueryRow(ctx, "SELECT coalesce(max(id), 0) FROM events WHERE writer = $1", w).Scan(&most); err != nil || most > after[w]+1 {
			t.Errorf("writer %d: the copy holds id %d, past the %d committed when the backup ended (%v)", w, most, after[w], err)
		}
	}
	var next int64
	if err := cc.QueryRow(ctx, "SELECT nextval('ids')").Scan(&next); err != nil || next != 3 {
		t.Errorf("the sequence goes on at %d (%v), want 3", next, err)
	}
	rows, err := cc.Query(ctx, "SELECT step FROM forecast('kept', steps := 2)")
	if err != nil {
		t.Fatal(err)
	}
	steps, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(steps) == 0 {
		t.Errorf("the copied model forecasts %d rows (%v)", len(steps), err)
	}
}
