//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// TestInvalidatedDatabaseReopens makes DuckDB invalidate the database for
// real: with its debug_checkpoint_abort setting, a CHECKPOINT fails with a
// FATAL error before it writes the file's header, as a failed disk write
// would, and DuckDB then refuses every statement on the instance. The
// session that saw it gets XX000 saying so, every session of the old
// instance ends with 57P01, the server logs it, and a new session finds the
// committed rows (replayed from the WAL), not the uncommitted one, the
// catalog, and a database that takes writes.
func TestInvalidatedDatabaseReopens(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := storage.Open(ctx, storage.Config{Path: filepath.Join(t.TempDir(), "reopen.duckdb")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs testserver.LogBuffer
	_, addr := serveFront(t, sqlfront.Config{}, server.Engine(db), defaultPlanner(), slog.New(slog.NewTextHandler(&logs, nil)), db.Close)

	a := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	for _, q := range []string{
		"CREATE TABLE kept (id integer PRIMARY KEY, note text)",
		"INSERT INTO kept VALUES (1, 'one'), (2, 'two')",
		"CHECKPOINT",
		"INSERT INTO kept VALUES (3, 'three')", // committed, in the WAL only
	} {
		if _, err := a.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	b := connect(t, addr, pgx.QueryExecModeExec)
	if _, err := b.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Exec(ctx, "INSERT INTO kept VALUES (4, 'never committed')"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, "SET GLOBAL debug_checkpoint_abort = 'before_header'"); err != nil {
		t.Fatal(err)
	}

	_, err = a.Exec(ctx, "CHECKPOINT")
	if code, msg := pgCode(err); code != "XX000" || !strings.Contains(msg, "invalidated the database") {
		t.Fatalf("the statement that invalidated the database: got %v, want XX000 saying the database was invalidated", err)
	}
	for name, c := range map[string]*pgx.Conn{"the session that saw it": a, "another session": b} {
		_, err := c.Exec(ctx, "SELECT 1")
		if code, _ := pgCode(err); code != "57P01" && !c.IsClosed() {
			t.Errorf("%s, next statement: got %v, want 57P01 and the connection closed", name, err)
		}
	}
	if !strings.Contains(logs.String(), "DuckDB invalidated the database") {
		t.Errorf("the server log does not say the database was invalidated:\n%s", logs.String())
	}

	c := connect(t, addr, pgx.QueryExecModeCacheStatement)
	var n int
	var notes string
	if err := c.QueryRow(ctx, "SELECT count(*), string_agg(note, ',' ORDER BY id) FROM kept").Scan(&n, &notes); err != nil {
		t.Fatalf("a new session after the reopen: %v", err)
	}
	if n != 3 || notes != "one,two,three" {
		t.Errorf("after the reopen kept holds %d rows (%s), want the 3 committed ones", n, notes)
	}
	if _, err := c.Exec(ctx, "INSERT INTO kept VALUES (5, 'after')"); err != nil {
		t.Errorf("a write after the reopen: %v", err)
	}
	var tables int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'kept'").Scan(&tables); err != nil || tables != 1 {
		t.Errorf("the catalog after the reopen: pg_tables shows kept %d times (%v), want once", tables, err)
	}
	if _, err := c.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Errorf("a checkpoint after the reopen (DuckDB's debug setting belongs to the old instance): %v", err)
	}

	// Invalidated by the server's own statement, not a client's: the next
	// connection meets it while its session is set up, and the one after
	// it finds the database reopened.
	if _, err := c.Exec(ctx, "INSERT INTO kept VALUES (6, 'six')"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, "SET GLOBAL debug_checkpoint_abort = 'before_header'"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, "CHECKPOINT"); !storage.IsInvalidated(err) {
		t.Fatalf("CHECKPOINT with debug_checkpoint_abort: %v", err)
	}
	if first, err := pgx.Connect(ctx, connString(addr)); err == nil {
		first.Close(ctx)
		t.Error("a connection to the invalidated database succeeded, want it to fail while the server reopens the database")
	} else if code, _ := pgCode(err); code != "XX000" {
		t.Errorf("a connection to the invalidated database: %v, want XX000", err)
	}
	d := connect(t, addr, pgx.QueryExecModeExec)
	if err := d.QueryRow(ctx, "SELECT count(*) FROM kept").Scan(&n); err != nil || n != 5 {
		t.Errorf("after the second reopen: %d rows, %v; want 5", n, err)
	}
	if _, err := c.Exec(ctx, "SELECT 1"); err == nil {
		t.Error("a session of the invalidated instance still runs statements")
	}
}

func pgCode(err error) (code, message string) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code, pe.Message
	}
	return "", ""
}
