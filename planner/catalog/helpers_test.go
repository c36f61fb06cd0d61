package catalog_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mallard/mallard/planner/catalog"
	"github.com/mallard/mallard/storage"
)

// session opens an in-memory database, installs the catalog, and returns one
// connection set up as the server sets up each session (schema public), with
// the DDL run on it.
func session(t testing.TB, ddl ...string) (*storage.DB, *sql.Conn) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(ctx) })
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	setup := append([]string{"CREATE SCHEMA IF NOT EXISTS public", "SET schema = 'public'"}, catalog.Statements()...)
	for _, q := range append(setup, ddl...) {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s\n%v", firstLine(q), err)
		}
	}
	return db, conn
}

func firstLine(q string) string {
	for _, l := range strings.Split(q, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
			return l
		}
	}
	return q
}

// rows runs q and returns every row with each value formatted by fmtValue.
func rows(t testing.TB, conn *sql.Conn, q string, args ...any) [][]string {
	t.Helper()
	r, err := conn.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s\n%v", q, err)
	}
	defer r.Close()
	cols, err := r.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for r.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := r.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = fmtValue(v)
		}
		out = append(out, row)
	}
	if err := r.Err(); err != nil {
		t.Fatalf("%s\n%v", q, err)
	}
	return out
}

// fmtValue renders a scanned value the way the tests compare values: NULL,
// true/false, numbers in decimal, lists as {a,b}.
func fmtValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = fmtValue(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case bool:
		if v {
			return "t"
		}
		return "f"
	}
	return fmt.Sprint(v)
}

// postgres returns the DSN of the PostgreSQL 15 to compare with, skipping the
// test when there is none (and failing it under CI, where there must be one).
func postgres(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("MALLARD_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MALLARD_TEST_POSTGRES is not set; run the tests through scripts/with-postgres.sh")
		}
		t.Skip("MALLARD_TEST_POSTGRES is not set; run the tests through scripts/with-postgres.sh")
	}
	return dsn
}
