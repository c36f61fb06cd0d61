//go:build duckdb_arrow

package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLogReaderGone runs the server with its log piped to a reader that
// goes away, as `make run 2>&1 | tee log` does when Ctrl-C ends tee: the
// server's next log lines meet a broken pipe. It must neither die of
// SIGPIPE nor lose its clean stop: the statement of a connected client
// still answers, SIGTERM takes the graceful path (status 0) and the
// database is checkpointed (no WAL is left).
func TestLogReaderGone(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "m.duckdb")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := execMallard(t, "serve", "--listen", freePort(t), "--db", dbPath, "--http", "", "--log-level", "debug")
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	addr := listeningAddr(t, r)
	r.Close() // the reader goes away: every later log line meets a broken pipe
	p := &mallardProcess{addr: addr}
	conn := p.dial(t)
	defer conn.Close(context.Background())
	execAll(t, conn, "CREATE TABLE kept AS SELECT 42 AS v", "INSERT INTO kept VALUES (1)")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("mallard exited with %v after its log's reader went and SIGTERM, want status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("mallard did not exit within 30 s of SIGTERM")
	}
	if fi, err := os.Stat(dbPath + ".wal"); err == nil && fi.Size() > 0 {
		t.Errorf("a WAL of %d bytes is left: the shutdown did not checkpoint", fi.Size())
	}
}

// listeningAddr reads the server's log from r until it says where it
// listens, and returns that address.
func listeningAddr(t *testing.T, r *os.File) string {
	t.Helper()
	lines := bufio.NewScanner(r)
	for lines.Scan() {
		line := lines.Text()
		if _, rest, ok := strings.Cut(line, "addr="); ok && strings.Contains(line, "listening") {
			return strings.Fields(rest)[0]
		}
	}
	t.Fatalf("the log ended before the server listened: %v", lines.Err())
	return ""
}
