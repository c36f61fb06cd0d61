package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mallard/mallard/internal/testserver"
)

// safetyLayout is a server's database outside its data directory, and
// symbolic links in the data directory that point at the database file,
// its WAL and its directory.
type safetyLayout struct {
	dir, dbDir, data, db string
}

func newSafetyLayout(t *testing.T) safetyLayout {
	t.Helper()
	dir := t.TempDir()
	l := safetyLayout{dir: dir, dbDir: filepath.Join(dir, "db"), data: filepath.Join(dir, "data")}
	l.db = filepath.Join(l.dbDir, "m.duckdb")
	for _, d := range []string{l.dbDir, l.data} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"db.csv": l.db, "wal.csv": l.db + ".wal", "dbdir": l.dbDir} {
		if err := os.Symlink(target, filepath.Join(l.data, link)); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// pathForms are the ways a statement can name Mallard's own files.
func (l safetyLayout) pathForms(t *testing.T) map[string]string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, l.db)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"absolute":       l.db,
		"relative":       rel,
		"dotdot":         l.data + "/../db/m.duckdb",
		"symlink":        filepath.Join(l.data, "db.csv"),
		"symlinked dir":  filepath.Join(l.data, "dbdir", "m.duckdb"),
		"file URL":       "file://" + l.db,
		"file localhost": "file://localhost" + l.db,
		"WAL":            l.db + ".wal",
		"WAL symlink":    filepath.Join(l.data, "wal.csv"),
		"WAL recovery":   l.db + ".wal.recovery",
		"glob":           l.dbDir + "/*.duckdb",
		"glob dir":       l.dbDir + "/*",
		"glob **":        l.data + "/**",
		"glob symlinks":  l.data + "/*.csv",
		"spool file":     l.db + ".spool/x.csv",
		"spool dir":      l.db + ".spool",
		"temp dir":       l.db + ".tmp/x.csv",
		"job dir":        l.db + ".jobs/x.parquet",
		"db directory":   l.dbDir,
	}
}

// pathStatements are the statements that take a file name, %s its literal.
var pathStatements = map[string]string{
	"read_blob":       "SELECT count(*) FROM read_blob(%s)",
	"read_text":       "SELECT count(*) FROM read_text(%s)",
	"read_csv":        "SELECT count(*) FROM read_csv(%s)",
	"read_csv_auto":   "SELECT count(*) FROM read_csv_auto(%s)",
	"read_parquet":    "SELECT count(*) FROM read_parquet(%s)",
	"parquet_scan":    "SELECT count(*) FROM parquet_scan(%s)",
	"read_json":       "SELECT count(*) FROM read_json(%s)",
	"read_json_auto":  "SELECT count(*) FROM read_json_auto(%s)",
	"read_ndjson":     "SELECT count(*) FROM read_ndjson(%s)",
	"glob":            "SELECT count(*) FROM glob(%s)",
	"list":            "SELECT count(*) FROM read_blob(['data.csv', %s])",
	"replacement":     "SELECT count(*) FROM %s",
	"COPY TO":         "COPY (SELECT 'garbage' g) TO %s (FORMAT csv, use_tmp_file false)",
	"COPY FROM":       "COPY keep FROM %s",
	"ATTACH":          "ATTACH %s AS other",
	"EXPORT DATABASE": "EXPORT DATABASE %s",
	"IMPORT DATABASE": "IMPORT DATABASE %s",
	"query()":         "SELECT count(*) FROM query('SELECT * FROM read_blob(''' || %s || ''')')",
	"nested query()":  "SELECT * FROM query(%s)",
	"CREATE TABLE AS": "CREATE TABLE stolen AS SELECT * FROM read_blob(%s)",
	"CREATE VIEW":     "CREATE VIEW stolen AS SELECT * FROM read_text(%s)",
	"serial DDL":      "CREATE TABLE stolen (id serial, b text DEFAULT (SELECT content FROM read_text(%s)))",
}

// refused fails t unless err is 42501 whose message names want.
func refused(t *testing.T, q string, err error, want string) {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42501" {
		t.Errorf("%s: got %v, want 42501", q, err)
		return
	}
	if want != "" && !strings.Contains(pgErr.Message, want) {
		t.Errorf("%s: message %q does not name %q", q, pgErr.Message, want)
	}
}

func literalOf(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// TestOwnFilesOutOfReach runs every statement that takes a file name with
// every form of a name of the database file, its WAL, spool, temporary
// and job directories, as the owner and the read-only role, in simple and
// extended protocol: each fails with 42501 naming the file, and the
// database's committed rows survive a restart.
func TestOwnFilesOutOfReach(t *testing.T) {
	l := newSafetyLayout(t)
	flags := []string{"--db", l.db, "--password", "pw", "--reader-password", "rpw", "--data-dir", l.data}
	s := serveForTest(t, flags...)
	ctx := context.Background()
	owner := s.connect(t, "mallard", "pw", "safety", nil)
	execAll(t, owner, "CREATE TABLE keep AS SELECT 42 AS x", "CHECKPOINT", "INSERT INTO keep VALUES (43)")
	reader := s.connect(t, "reader", "rpw", "safety", nil)
	modes := map[string]pgx.QueryExecMode{"simple": pgx.QueryExecModeSimpleProtocol, "extended": pgx.QueryExecModeExec}
	for role, conn := range map[string]*pgx.Conn{"owner": owner, "reader": reader} {
		for form, path := range l.pathForms(t) {
			for what, stmt := range pathStatements {
				arg := literalOf(path)
				if what == "nested query()" {
					arg = literalOf("SELECT * FROM read_blob(" + literalOf(path) + ")")
				}
				q := fmt.Sprintf(stmt, arg)
				for mode, m := range modes {
					_, err := conn.Exec(ctx, q, m)
					want := path
					if what == "query()" {
						want = "" // the path is computed: refused without being named
					}
					if role == "reader" && err != nil && strings.Contains(err.Error(), "read-only") {
						want = "" // the read-only role's refusal of the statement comes first
					}
					if err == nil || !strings.Contains(err.Error(), "42501") {
						t.Errorf("%s, %s, %s, %s: %s: got %v, want 42501", role, form, what, mode, q, err)
						continue
					}
					refused(t, q, err, want)
				}
			}
		}
		for _, q := range []string{"SELECT count(*) FROM read_blob($1)", "SELECT count(*) FROM read_text($1)",
			"SELECT count(*) FROM glob($1)", "SELECT count(*) FROM read_csv([$1])"} {
			for form, path := range l.pathForms(t) {
				_, err := conn.Exec(ctx, q, pgx.QueryExecModeExec, path)
				if err == nil {
					t.Errorf("%s, %s: %s with $1 = %s: no error", role, form, q, path)
					continue
				}
				refused(t, q+" with "+form, err, path)
			}
		}
	}
	computed := []string{
		"SELECT count(*) FROM read_blob(" + literalOf(l.dbDir+"/") + " || 'm.duckdb')",
		"SELECT count(*) FROM read_blob(concat(" + literalOf(l.db) + ", '.wal'))",
		"SELECT count(*) FROM read_blob(getvariable('p'))",
		"CREATE MACRO rb(p) AS TABLE SELECT * FROM read_blob(p)",
		"PREPARE rb AS SELECT * FROM read_blob($1)",
		"SELECT count(*) FROM read_blob(" + literalOf(l.dbDir+"/m.") + "\n'duckdb')",
		"SELECT count(*) FROM read_blob(E" + literalOf(strings.ReplaceAll(l.db, "/", `\/`)) + ")",
		"SELECT mallard.backup(" + literalOf(l.db+".wal") + ")",
	}
	for _, q := range computed {
		for mode, m := range modes {
			_, err := owner.Exec(ctx, q, m)
			if err == nil {
				t.Errorf("%s, %s: no error", q, mode)
				continue
			}
			refused(t, q, err, "")
		}
	}

	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	s = serveForTest(t, flags...)
	var rows []int32
	conn := s.connect(t, "mallard", "pw", "safety", nil)
	r, err := conn.Query(ctx, "SELECT x FROM keep ORDER BY x")
	if err == nil {
		rows, err = pgx.CollectRows(r, pgx.RowTo[int32])
	}
	if err != nil || fmt.Sprint(rows) != "[42 43]" {
		t.Fatalf("after a restart, keep holds %v (%v), want [42 43]", rows, err)
	}
}

// TestOwnFilesDefaultConfig serves the default configuration (mallard.duckdb
// in the working directory, no password, no data directory): the database
// file and its WAL stay out of reach by every form of their names.
func TestOwnFilesDefaultConfig(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	addr := freePort(t)
	s := serveInProcess(t, "--listen", addr, "--http", "")
	served := &servedMallard{addr: addr, inProcess: s}
	waitListening(t, served)
	ctx := context.Background()
	conn := served.connect(t, "mallard", "", "safety", nil)
	execAll(t, conn, "CREATE TABLE keep AS SELECT 42 AS x")
	for _, path := range []string{"mallard.duckdb", "./mallard.duckdb.wal", filepath.Join(dir, "mallard.duckdb"), "*.duckdb", "file://" + dir + "/mallard.duckdb", "../" + filepath.Base(dir) + "/mallard.duckdb", "**"} {
		for _, stmt := range []string{"COPY (SELECT 'garbage' g) TO %s (FORMAT csv, use_tmp_file false)", "SELECT count(*) FROM read_blob(%s)", "ATTACH %s AS other"} {
			q := fmt.Sprintf(stmt, literalOf(path))
			_, err := conn.Exec(ctx, q)
			refused(t, q, err, path)
		}
	}
	var x int
	if err := conn.QueryRow(ctx, "SELECT x FROM keep").Scan(&x); err != nil || x != 42 {
		t.Fatalf("keep: %d, %v", x, err)
	}
}

func waitListening(t *testing.T, s *servedMallard) {
	t.Helper()
	for i := 0; !strings.Contains(s.logs.String(), "mallard listening"); i++ {
		select {
		case <-s.done:
			t.Fatalf("server ended: %v\n%s", s.err, s.logs.String())
		default:
		}
		if i > 3000 {
			t.Fatalf("server did not start:\n%s", s.logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLegitimateFilesStillWork: files in the data directory are read and
// written as before, COPY FROM STDIN spools, and the examples' loads run.
func TestLegitimateFilesStillWork(t *testing.T) {
	l := newSafetyLayout(t)
	s := serveForTest(t, "--db", l.db, "--password", "pw", "--data-dir", l.data, "--data-dir", filepath.Dir(testserver.UnemploymentCSV(t)))
	ctx := context.Background()
	conn := s.connect(t, "mallard", "pw", "safety", nil)
	out := filepath.Join(l.data, "out.csv")
	execAll(t, conn, testserver.Unemployment(t)...)
	execAll(t, conn,
		"CREATE TABLE keep AS SELECT range AS x FROM range(5)",
		"COPY keep TO "+literalOf(out)+" (HEADER)",
		"CREATE TABLE back (x BIGINT)",
		"COPY back FROM "+literalOf(out)+" (HEADER)",
		"COPY back FROM "+literalOf("file://"+out)+" (HEADER)",
		"CREATE TABLE snap AS SELECT * FROM mlops.models",
	)
	for _, m := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM read_csv("+literalOf(out)+")", m).Scan(&n); err != nil || n != 5 {
			t.Errorf("read_csv of a data file: %d, %v", n, err)
		}
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM glob("+literalOf(l.data+"/out*")+")", m).Scan(&n); err != nil || n != 1 {
			t.Errorf("glob of data files: %d, %v", n, err)
		}
		var text string // DuckDB prepares count(*) of read_csv($1) as text
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM read_csv($1)", pgx.QueryExecModeExec, out).Scan(&text); err != nil || text != "5" {
			t.Errorf("read_csv($1) of a data file: %s, %v", text, err)
		}
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"back"}, []string{"x"}, pgx.CopyFromRows([][]any{{int64(7)}, {int64(8)}}))
	if err != nil || n != 2 {
		t.Fatalf("COPY FROM STDIN: %d, %v", n, err)
	}
}

// TestRegistryReadOnlyToSQL: DML and DDL on the registry's tables fail
// with 42501 and a hint naming the mlops functions, in simple and extended
// protocol, however the table is named; reading it and training (the
// registry's own writes) keep working.
func TestRegistryReadOnlyToSQL(t *testing.T) {
	s := serveForTest(t, "--data-dir", filepath.Dir(testserver.UnemploymentCSV(t)))
	ctx := context.Background()
	conn := s.connect(t, "mallard", "", "registry", nil)
	execAll(t, conn, testserver.Unemployment(t)...)
	execAll(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'kept', epochs := 2, hidden := [4, 4], scaler := 'u')")
	csv := filepath.Join(t.TempDir(), "x.csv")
	writes := []string{
		"DELETE FROM mlops.models",
		"DELETE FROM mlops.artifacts WHERE true",
		"UPDATE mlops.models SET status = 'x'",
		"INSERT INTO mlops.training_metrics SELECT * FROM mlops.training_metrics",
		"INSERT OR REPLACE INTO mlops.scalers SELECT * FROM mlops.scalers",
		"TRUNCATE mlops.training_runs",
		"DROP TABLE mlops.training_metrics",
		"DROP TABLE IF EXISTS snap_none, mlops.reports",
		"ALTER TABLE mlops.models ADD COLUMN z INTEGER",
		"CREATE TABLE mlops.evil (a INTEGER)",
		"CREATE OR REPLACE VIEW mlops.models_view AS SELECT 1",
		"CREATE INDEX evil ON mlops.models (name)",
		"DROP SCHEMA mlops CASCADE",
		`DELETE FROM "MLOPS"."Models"`,
		"DELETE FROM memory.mlops.models",
		"WITH d AS (SELECT 1) DELETE FROM mlops.models",
		"COPY mlops.models FROM " + literalOf(csv),
	}
	unqualified := []string{"DELETE FROM models", "UPDATE training_runs SET status = 'x'", "CREATE TABLE evil (a INTEGER)"}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
		for _, q := range writes {
			_, err := conn.Exec(ctx, q, mode)
			registryRefused(t, q, err)
		}
		execAll(t, conn, "SET search_path = mlops")
		for _, q := range unqualified {
			_, err := conn.Exec(ctx, q, mode)
			registryRefused(t, "search_path mlops: "+q, err)
		}
		execAll(t, conn, "SET search_path = main")
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM mlops.models WHERE name = 'kept'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("mlops.models after the refused writes: %d rows of kept, %v", n, err)
	}
	execAll(t, conn, "CREATE TABLE snap AS SELECT * FROM mlops.models", "INSERT INTO snap SELECT * FROM mlops.models",
		"CREATE TABLE models (a INTEGER)", "INSERT INTO models VALUES (1)",
		"SELECT mlops.drop('kept')")
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM mlops.models WHERE name = 'kept'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("mlops.drop left %d rows of kept (%v)", n, err)
	}
}

func registryRefused(t *testing.T, q string, err error) {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42501" || !strings.Contains(pgErr.Hint, "mlops.drop") {
		t.Errorf("%s: got %v, want 42501 with a hint naming mlops.drop", q, err)
	}
}

// TestOwnFilesSurviveKill: after COPY onto the database file and onto its
// WAL is refused, a server killed with SIGKILL restarts with every
// committed row, those only in the WAL included.
func TestOwnFilesSurviveKill(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "k.duckdb")
	server := startMallard(t, dbPath)
	conn := server.connect(t)
	execAll(t, conn, "CREATE TABLE keep AS SELECT 42 AS x", "CHECKPOINT", "INSERT INTO keep VALUES (43)")
	for _, target := range []string{dbPath, dbPath + ".wal"} {
		q := "COPY (SELECT 'garbage' g) TO " + literalOf(target) + " (FORMAT csv, use_tmp_file false)"
		_, err := conn.Exec(context.Background(), q)
		refused(t, q, err, target)
	}
	server.kill(t)
	conn = startMallard(t, dbPath).connect(t)
	r, err := conn.Query(context.Background(), "SELECT x FROM keep ORDER BY x")
	var rows []int32
	if err == nil {
		rows, err = pgx.CollectRows(r, pgx.RowTo[int32])
	}
	if err != nil || fmt.Sprint(rows) != "[42 43]" {
		t.Fatalf("after SIGKILL and a restart, keep holds %v (%v), want [42 43]", rows, err)
	}
}
