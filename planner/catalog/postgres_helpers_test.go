package catalog_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

var pgDatabases atomic.Int64

// pgSession connects to a fresh database on the PostgreSQL 15 of
// MALLARD_TEST_POSTGRES, dropped when the test ends, with the DDL run on it.
// A database of its own keeps the test apart from others sharing the server.
func pgSession(t *testing.T, ddl ...string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, postgres(t))
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	t.Cleanup(func() { _ = admin.Close(ctx) })
	name := fmt.Sprintf("mallard_catalog_%d_%d", os.Getpid(), pgDatabases.Add(1))
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	cfg, err := pgx.ParseConfig(postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Database = name
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(ctx) })
	for _, q := range ddl {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("PostgreSQL: %s\n%v", firstLine(q), err)
		}
	}
	return conn
}

// pgRows runs q on PostgreSQL and returns every row formatted as rows does;
// queries select text so that both sides format values alike.
func pgRows(t *testing.T, conn *pgx.Conn, q string, args ...any) [][]string {
	t.Helper()
	r, err := conn.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("PostgreSQL: %s\n%v", q, err)
	}
	defer r.Close()
	var out [][]string
	for r.Next() {
		vals, err := r.Values()
		if err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = fmtValue(v)
		}
		out = append(out, row)
	}
	if err := r.Err(); err != nil {
		t.Fatalf("PostgreSQL: %s\n%v", q, err)
	}
	return out
}

// diffRows reports the rows that differ between Mallard's and PostgreSQL's
// answers, which must be in the same order.
func diffRows(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	n := max(len(got), len(want))
	for i := range n {
		var g, w []string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("%s row %d:\n  mallard:  %q\n  postgres: %q", what, i, g, w)
		}
	}
}
