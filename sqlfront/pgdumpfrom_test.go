//go:build duckdb_arrow

package sqlfront_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallard/mallard/sqlfront"
)

// TestPgDumpFromMallard runs the real pg_dump 15 against Mallard, schema
// only and in full, and restores each dump into PostgreSQL 15 with psql -v
// ON_ERROR_STOP=1: a user can leave as easily as they came. The restored
// database must match Mallard (columns, types, rows, sequences' next
// values) and enforce the same constraints. Mallard's own mlops schema is
// left out with -N, as a user leaving would leave it.
func TestPgDumpFromMallard(t *testing.T) {
	requirePostgres(t)
	src := mallardConfig(t, startServer(t, sqlfront.Config{}))
	runTool(t, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", filepath.Join("testdata", "pgdump", "frommallard.sql"), libpq(src))
	dir := t.TempDir()

	schemaOnly := filepath.Join(dir, "schema.sql")
	runTool(t, "pg_dump", "-s", "--no-owner", "-N", "mlops", "-f", schemaOnly, libpq(src))
	runTool(t, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", schemaOnly, libpq(freshPostgresDatabase(t)))

	full := filepath.Join(dir, "full.sql")
	runTool(t, "pg_dump", "--no-owner", "-N", "mlops", "-f", full, libpq(src))
	dump, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	text := string(dump)
	for _, want := range []string{
		"SELECT pg_catalog.set_config('search_path', '', false);",
		"DEFAULT nextval('shop.customer_id_seq'::regclass)",
		"FOREIGN KEY (customer_id) REFERENCES shop.customer(id)",
		"SELECT pg_catalog.setval('public.ticket', 101, true);",
		`\\xdeadbeef`,
		"CREATE VIEW shop.big_orders AS",
		"CREATE VIEW public.order_counts AS",
		"FROM public.note",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the dump lacks %q", want)
		}
	}
	dst := freshPostgresDatabase(t)
	runTool(t, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", full, libpq(dst))
	compareRestored(t, dst, src)
	compareChecks(t, filepath.Join("testdata", "pgdump", "frommallard.checks.sql"), dst, src)
}
