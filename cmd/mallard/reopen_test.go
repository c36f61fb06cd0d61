package main

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestReopenRestoresMallard invalidates the served database for real (a
// CHECKPOINT that DuckDB's debug_checkpoint_abort makes fail fatally) and
// checks that after the reopen a new session has Mallard's own functions
// (pivot_entity_time, signed_log), the operator's (pg_stat_activity,
// pg_cancel_backend)
// and the committed rows: what lives in the instance's memory is installed
// again, not only the catalog.
func TestReopenRestoresMallard(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "m.duckdb")
	addr, httpAddr := freePort(t), freePort(t)
	srv := serveInProcess(t, "--listen", addr, "--db", dbPath, "--http", httpAddr, "--shutdown-grace", "0")
	bg := context.Background()
	conn := connectRetry(t, addr)
	if _, err := conn.Exec(bg, "CREATE TABLE ev AS SELECT 'e' || (i % 3) AS e, i // 3 AS t, i::DOUBLE AS v FROM range(30) r(i)"); err != nil {
		t.Fatal(err)
	}
	// A session may not change a server-wide setting (55P02): the fault is
	// set on the served instance itself, which duckdb-go's instance cache
	// shares with this process.
	connector, err := duckdb.NewConnector(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	direct := sql.OpenDB(connector)
	defer direct.Close()
	if _, err := direct.ExecContext(bg, "SET GLOBAL debug_checkpoint_abort = 'before_header'"); err != nil {
		t.Fatal(err)
	}
	var pe *pgconn.PgError
	if _, err := conn.Exec(bg, "CHECKPOINT"); !errors.As(err, &pe) || pe.Code != "XX000" {
		t.Fatalf("CHECKPOINT with debug_checkpoint_abort: %v, want XX000 (the database invalidated)", err)
	}

	var after *pgx.Conn
	deadline := time.Now().Add(30 * time.Second)
	for after == nil {
		c := connectRetry(t, addr)
		if err := c.Ping(bg); err == nil {
			after = c
		} else if time.Now().After(deadline) {
			t.Fatalf("no working session after the reopen: %v\n%s", err, srv.logs.String())
		}
	}
	checks := map[string]string{
		"committed rows":       "SELECT count(*) FROM ev",
		"a table function":     "SELECT count(*) FROM pivot_entity_time('ev', entity := 'e', time := 't', value := 'v')",
		"a scalar function":    "SELECT count(*) FROM (SELECT signed_log(1000.0))",
		"the operator views":   "SELECT count(*) FROM pg_stat_activity WHERE pid = pg_backend_pid()",
		"an operator function": "SELECT count(*) FROM (SELECT pg_cancel_backend(-1))",
	}
	want := map[string]int{"committed rows": 30, "a table function": 10, "a scalar function": 1, "the operator views": 1, "an operator function": 1}
	for name, q := range checks {
		var n int
		if err := after.QueryRow(bg, q).Scan(&n); err != nil || n != want[name] {
			t.Errorf("%s after the reopen: %d, %v; want %d\n%s", name, n, err, want[name], q)
		}
	}
}
