//go:build duckdb_arrow

package functions_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/storage"
)

// startServer runs a Mallard server on a fresh in-memory database and
// returns its address.
func startServer(t testing.TB) string {
	t.Helper()
	return startServerWith(t, server.Config{})
}

// startServerWith is startServer with cfg.
func startServerWith(t testing.TB, cfg server.Config) string {
	t.Helper()
	_, addr := testserver.Start(t, cfg)
	return addr
}

// startServerDB is startServer that also returns the server's database,
// whose database/sql handle tamper writes the registry through.
func startServerDB(t testing.TB) (string, *storage.DB) {
	t.Helper()
	srv, addr := testserver.Start(t, server.Config{})
	return addr, srv.DB
}

// tamper runs queries on db's database/sql handle, the one the registry
// writes through: sessions may not write schema mlops, and tests that
// stage a registry state (a failed version, a damaged artifact) do so.
func tamper(t testing.TB, db *storage.DB, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if _, err := db.SQL().ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// connect opens a pgx connection in the given exec mode.
func connect(t testing.TB, addr string, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	return connectWithNotices(t, addr, mode, nil)
}

// connectWithNotices opens a pgx connection in the given exec mode whose
// NOTICE messages are appended to *notices, if notices is not nil.
func connectWithNotices(t testing.TB, addr string, mode pgx.QueryExecMode, notices *[]string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(testserver.ConnString(addr))
	if err != nil {
		t.Fatal(err)
	}
	if notices != nil {
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { *notices = append(*notices, n.Message) }
	}
	return testserver.Connect(t, cfg, mode)
}

// exec runs statements, failing the test on error.
func exec(t testing.TB, conn *pgx.Conn, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if _, err := conn.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// unemploymentCSV is the Vega unemployment data set the repository ships.
var unemploymentCSV = filepath.Join("..", "examples", "data", "unemployment-across-industries.csv")

// loadUnemployment creates table u and fills it through COPY FROM STDIN.
func loadUnemployment(t testing.TB, conn *pgx.Conn) {
	t.Helper()
	f, err := os.Open(unemploymentCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	exec(t, conn, "CREATE TABLE u (series VARCHAR, year INTEGER, month INTEGER, count INTEGER, rate DOUBLE)")
	tag, err := conn.PgConn().CopyFrom(context.Background(), f, "COPY u FROM STDIN (FORMAT csv, HEADER true)")
	if err != nil {
		t.Fatal(err)
	}
	if tag.RowsAffected() != 1708 {
		t.Fatalf("COPY loaded %d rows, want 1708", tag.RowsAffected())
	}
}

// errorCode runs query and returns the Postgres error it fails with.
func errorCode(t testing.TB, conn *pgx.Conn, query string) *pgconn.PgError {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err == nil {
		for rows.Next() {
		}
		rows.Close()
		err = rows.Err()
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		t.Fatalf("%s: error %v, want a Postgres error", query, err)
	}
	return pgErr
}
