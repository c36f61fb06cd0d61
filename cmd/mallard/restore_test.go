//go:build duckdb_arrow

package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestBackupByName backs up a server started with no --data-dir for its
// database's directory and no --backup-dir: mallard.backup('nightly')
// writes nightly.duckdb in a backups directory beside the database; the
// same name again fails with 58P02; a relative path fails with 22023; the
// database file, a file in its spool directory and its WAL are refused
// with 42501 naming the path, a path outside the data and backup
// directories with 42501 whose hint names the backup directory, and
// nothing is written.
func TestBackupByName(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "live.duckdb")
	server := startMallard(t, db)
	conn := server.connect(t)
	execAll(t, conn, "CREATE TABLE t AS SELECT i FROM range(1000) r(i)")
	want := filepath.Join(dir, "backups", "nightly.duckdb")
	var got string
	if err := conn.QueryRow(ctx, "SELECT mallard.backup('nightly')").Scan(&got); err != nil || got != want {
		t.Fatalf("mallard.backup('nightly'): %q (%v), want %s", got, err, want)
	}
	for _, tt := range []struct{ name, file, code string }{
		{"the same name", "nightly.duckdb", "58P02"},
		{"a relative path", "sub/x.duckdb", "22023"},
		{"the database", db, "42501"},
		{"the spool directory", db + ".spool/x.duckdb", "42501"},
		{"the WAL", db + ".wal", "42501"},
	} {
		_, err := conn.Exec(ctx, "SELECT mallard.backup($1)", tt.file)
		if sqlState(err) != tt.code || (tt.code == "42501" && !strings.Contains(err.Error(), tt.file)) {
			t.Errorf("%s: %v, want SQLSTATE %s naming %s", tt.name, err, tt.code, tt.file)
		}
	}
	outside := filepath.Join(t.TempDir(), "x.duckdb")
	_, err := conn.Exec(ctx, "SELECT mallard.backup($1)", outside)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42501" || !strings.Contains(pe.Hint, filepath.Join(dir, "backups")) {
		t.Errorf("a path outside the data and backup directories: %v, want 42501 with a hint naming the backup directory", err)
	}
	if _, err := os.Stat(db + ".spool/x.duckdb"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused backup wrote into the spool directory (%v)", err)
	}
	var n int
	if err := startMallard(t, want).connect(t).QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 1000 {
		t.Errorf("a server on the backup: %d rows (%v), want 1000", n, err)
	}
}

// runMallard runs the mallard binary with args and returns its output
// and exit status.
func runMallard(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, err := execMallard(t, args...).CombinedOutput()
	var exit interface{ ExitCode() int }
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// countT counts the rows of t in the database a server on db serves,
// and stops that server.
func countT(t *testing.T, db string) int {
	t.Helper()
	server := startMallard(t, db)
	var n int
	if err := server.connect(t).QueryRow(context.Background(), "SELECT count(*) FROM t").Scan(&n); err != nil {
		t.Fatal(err)
	}
	exitWithin(t, server.terminate(t), time.Minute)
	return n
}

// TestRestore restores a backup with mallard restore: refused while a
// server holds the database (which keeps its rows), refused for a file
// that is no database (nothing changes), and otherwise the database
// served afterwards is the backup's, with no temporary left beside it.
// A server started on the backup itself serves it too.
func TestRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "live.duckdb")
	server := startMallard(t, db)
	conn := server.connect(t)
	execAll(t, conn, "CREATE TABLE t AS SELECT i FROM range(100) r(i)")
	var backup string
	if err := conn.QueryRow(ctx, "SELECT mallard.backup('snap')").Scan(&backup); err != nil {
		t.Fatal(err)
	}
	execAll(t, conn, "INSERT INTO t SELECT i FROM range(100, 150) r(i)")

	out, code := runMallard(t, "restore", "--from", backup, "--db", db)
	if code != 2 || !strings.Contains(out, "a running server") {
		t.Errorf("restore over a served database: status %d\n%s\nwant status 2 saying a server holds it", code, out)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 150 {
		t.Errorf("the served database after the refused restore: %d rows (%v), want 150", n, err)
	}
	conn.Close(ctx)
	exitWithin(t, server.terminate(t), time.Minute)
	if n := countT(t, backup); n != 100 {
		t.Errorf("a server on the backup serves %d rows, want 100", n)
	}

	junk := filepath.Join(dir, "junk.duckdb")
	if err := os.WriteFile(junk, []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runMallard(t, "restore", "--from", junk, "--db", db); code != 2 || !strings.Contains(out, "does not open as a database") {
		t.Errorf("restore of a file that is no database: status %d\n%s", code, out)
	}
	if n := countT(t, db); n != 150 {
		t.Errorf("after the refused restore the database has %d rows, want 150", n)
	}

	if out, code := runMallard(t, "restore", "--from", backup, "--db", db); code != 0 || !strings.HasPrefix(out, "restored "+db+" from "+backup) {
		t.Fatalf("restore: status %d\n%s", code, out)
	}
	if left, _ := filepath.Glob(db + ".restore-*"); len(left) != 0 {
		t.Errorf("the restore left %v behind", left)
	}
	if n := countT(t, db); n != 100 {
		t.Errorf("the restored database has %d rows, want the backup's 100", n)
	}
	conn = startMallard(t, db).connect(t)
	rows, err := conn.Query(ctx, "SELECT i FROM t ORDER BY i")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(got) != 100 || got[99] != 99 {
		t.Errorf("the restored rows: %d, last %v (%v)", len(got), got[len(got)-1:], err)
	}
}
