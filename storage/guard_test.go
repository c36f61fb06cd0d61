package storage_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// TestGuardRefusesOwnFiles prepares, on a connection of a file database
// with a job directory and no sandbox, statements that name Mallard's own
// files: each fails with 42501 naming what it named, while files beside
// them stay reachable.
func TestGuardRefusesOwnFiles(t *testing.T) {
	dir := t.TempDir()
	dbDir, data, jobs := filepath.Join(dir, "db"), filepath.Join(dir, "data"), filepath.Join(dir, "jobs")
	for _, d := range []string{dbDir, data, jobs, filepath.Join(data, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(dbDir, "m.duckdb")
	if err := os.Symlink(dbDir, filepath.Join(data, "sub", "deep")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "ok.csv"), []byte("a\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, err := storage.Open(ctx, storage.Config{Path: db, Protected: []string{jobs}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	c, err := d.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct{ name, query, want string }{
		{"link in a data subdirectory", "SELECT * FROM read_blob('" + data + "/sub/deep/m.duckdb')", "deep/m.duckdb"},
		{"** through a link", "SELECT * FROM glob('" + data + "/**/*.duckdb')", data + "/**"},
		{"link then ..", "SELECT * FROM read_text('" + data + "/sub/deep/../db/m.duckdb.wal')", "deep/../db"},
		{"bracket glob", "SELECT * FROM read_blob('" + dbDir + "/m.[d]uckdb')", "[d]"},
		{"job directory", "COPY (SELECT 1) TO '" + jobs + "/x.csv'", jobs},
		{"directory above", "EXPORT DATABASE '" + dir + "'", dir},
		{"FROM identifier", `SELECT * FROM "` + db + `"`, db},
		{"comma in FROM", "SELECT * FROM range(1), '" + db + "'", db},
		{"dollar quoted", "SELECT * FROM read_blob($$" + db + "$$)", db},
		{"comment between", "SELECT * FROM read_blob(/* x */ '" + db + "' -- y\n)", db},
		{"attach", "ATTACH IF NOT EXISTS '" + db + ".wal' AS w", ".wal"},
		{"copy to expression", "COPY (SELECT 1) TO getvariable('p')", "COPY"},
		{"lateral column", "SELECT * FROM (SELECT 'x' AS f) t, read_csv(t.f)", "read_csv()"},
		{"query in query", "SELECT * FROM query('SELECT * FROM query(''SELECT * FROM read_blob(''''" + db + "'''')'')')", db},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := c.Prepare(ctx, tc.query)
			if err == nil {
				st.Close()
			}
			var e *sqlstate.Error
			if !errors.As(err, &e) || e.Code != sqlstate.InsufficientPrivilege || !strings.Contains(e.Message, tc.want) {
				t.Fatalf("%s: got %v, want 42501 naming %q", tc.query, err, tc.want)
			}
		})
	}
	st, err := c.Prepare(ctx, "SELECT count(*) FROM read_csv($1)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var e *sqlstate.Error
	if err := st.Bind([]any{"file://" + db}); !errors.As(err, &e) || e.Code != sqlstate.InsufficientPrivilege {
		t.Errorf("Bind of the database file: got %v, want 42501", err)
	}
	if err := st.Bind([]any{filepath.Join(data, "ok.csv")}); err != nil {
		t.Errorf("Bind of a data file: %v", err)
	}
	for _, q := range []string{"SELECT * FROM glob('" + data + "/*.csv')", "SELECT 'm.duckdb', '*' AS star",
		"SELECT * FROM read_csv('" + data + "/ok.csv')", "SELECT * FROM read_csv(['" + data + "/ok.csv'], header = true)"} {
		st, err := c.Prepare(ctx, q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		st.Close()
	}
}

// BenchmarkGuardedPrepare measures what the guards add to Prepare:
// guarded Prepare against PrepareOwn (no guard) of the same statements,
// in the same run, printing the ratio.
func BenchmarkGuardedPrepare(b *testing.B) {
	dir := b.TempDir()
	ctx := context.Background()
	d, err := storage.Open(ctx, storage.Config{Path: filepath.Join(dir, "b.duckdb")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close(ctx)
	c, err := d.Connect()
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	csv := filepath.Join(dir, "x.csv")
	if err := os.WriteFile(csv, []byte("a\n1\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := c.Exec(ctx, "CREATE TABLE t (a INTEGER)"); err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{"SELECT a FROM t WHERE a = 1", "INSERT INTO t VALUES (1)", "SELECT * FROM read_csv('" + csv + "')"} {
		var ns [2]float64
		for i, prepare := range []func(context.Context, string) (*storage.Stmt, error){c.PrepareOwn, c.Prepare} {
			const n = 2000
			start := time.Now()
			for range n {
				st, err := prepare(ctx, q)
				if err != nil {
					b.Fatal(err)
				}
				st.Close()
			}
			ns[i] = float64(time.Since(start).Nanoseconds()) / n
		}
		b.Logf("%s: unguarded %.1f µs, guarded %.1f µs, ratio %.2f", q, ns[0]/1e3, ns[1]/1e3, ns[1]/ns[0])
	}
}
