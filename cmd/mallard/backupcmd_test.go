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

	"github.com/mallard/mallard/internal/testserver"
)

// TestBackupCommand runs mallard backup on a database a server holds (a
// clear refusal naming mallard.backup, no file written), then, once the
// server has stopped, on the same file: the copy serves every row, the
// model and the sequence; a second backup to the same path, a missing
// source and a missing -to fail naming what is wrong.
func TestBackupCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath, copyPath := filepath.Join(dir, "live.duckdb"), filepath.Join(dir, "copy.duckdb")
	server := startMallard(t, dbPath)
	conn := server.dial(t)
	execAll(t, conn, testserver.Unemployment(t)...)
	execAll(t, conn,
		"SELECT count(*) FROM train_gat('uw', model := 'kept', epochs := 2, hidden := [4, 4], scaler := 'u')",
		"CREATE SEQUENCE ids",
		"SELECT nextval('ids')")
	var rows int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM u").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	run := func(args ...string) (string, int) {
		t.Helper()
		out, err := execMallard(t, append([]string{"backup"}, args...)...).CombinedOutput()
		var exit interface{ ExitCode() int }
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	out, code := run("--db", dbPath, "--to", copyPath)
	if code != 2 || !strings.Contains(out, "SELECT mallard.backup('"+copyPath+"')") || !strings.Contains(out, "a running server") {
		t.Errorf("backup of a served database: status %d\n%s\nwant status 2 pointing to mallard.backup", code, out)
	}
	if _, err := os.Stat(copyPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused backup left %s behind (%v)", copyPath, err)
	}
	exitWithin(t, server.terminate(t), 30*time.Second)

	out, code = run("--db", dbPath, "--to", copyPath)
	if code != 0 || !strings.HasPrefix(out, "backed up "+dbPath+" to "+copyPath) {
		t.Fatalf("backup of a stopped server's database: status %d\n%s", code, out)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"the copy exists", []string{"--db", dbPath, "--to", copyPath}, "exists"},
		{"no such database", []string{"--db", filepath.Join(dir, "none.duckdb"), "--to", filepath.Join(dir, "x.duckdb")}, "want an existing database file"},
		{"no -to", []string{"--db", dbPath}, "-to is missing"},
		{"no such directory", []string{"--db", dbPath, "--to", filepath.Join(dir, "no", "x.duckdb")}, "does not exist"},
		{"in-memory", []string{"--db", ":memory:", "--to", filepath.Join(dir, "x.duckdb")}, "want the file of a database"},
	} {
		if out, code := run(tt.args...); code != 2 || !strings.Contains(out, tt.want) {
			t.Errorf("%s: status %d\n%s\nwant status 2 saying %q", tt.name, code, out, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.duckdb")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed backup left x.duckdb behind (%v)", err)
	}

	cc := startMallard(t, copyPath).connect(t)
	var copied int
	var next int64
	if err := cc.QueryRow(ctx, "SELECT (SELECT count(*) FROM u), nextval('ids')").Scan(&copied, &next); err != nil || copied != rows || next != 2 {
		t.Errorf("the copy: %d rows of u (want %d), the sequence goes on at %d (want 2) (%v)", copied, rows, next, err)
	}
	var steps int
	if err := cc.QueryRow(ctx, "SELECT count(*) FROM forecast('kept', steps := 2)").Scan(&steps); err != nil || steps == 0 {
		t.Errorf("the copied model forecasts %d rows (%v)", steps, err)
	}
}
