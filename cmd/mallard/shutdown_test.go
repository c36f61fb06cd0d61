//go:build duckdb_arrow

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/internal/testserver"
)

// terminate sends the server SIGTERM once its log says it listens, and
// returns a channel that yields its exit error (nil for status 0).
func (p *mallardProcess) terminate(t *testing.T) <-chan error {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() {
		<-p.exited
		exited <- p.err
	}()
	return exited
}

// logText is what the process has logged so far.
func (p *mallardProcess) logText(t *testing.T) string {
	t.Helper()
	out, err := os.ReadFile(p.log)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// waitLog waits until the process's log holds text.
func (p *mallardProcess) waitLog(t *testing.T, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(p.logText(t), text) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never said %q", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exitWithin waits for the process to exit, failing the test unless it
// exits with status 0 within limit.
func exitWithin(t *testing.T, exited <-chan error, limit time.Duration) {
	t.Helper()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("mallard exited with %v after SIGTERM, want status 0", err)
		}
	case <-time.After(limit):
		t.Fatalf("mallard did not exit within %s of SIGTERM", limit)
	}
}

// isShutdown reports whether err is the server ending the session: 57P01,
// or the connection it closed after sending it.
func isShutdown(err error) bool {
	return err != nil && (sqlState(err) == "57P01" || strings.Contains(err.Error(), "57P01"))
}

// execMallard is the mallard binary run with args, stopped if it runs a minute.
func execMallard(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return exec.CommandContext(ctx, mallardBinary(t), args...)
}

// TestShutdownIdleSessions sends SIGTERM to a server whose sessions are
// idle, one of them in a transaction: with a grace of a minute the server
// does not wait for them; each is told 57P01, the open transaction is
// rolled back, the database is checkpointed (no WAL is left) and the
// process exits 0, logging each step.
func TestShutdownIdleSessions(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "m.duckdb")
	server := startMallard(t, dbPath, "--log-level", "info", "--shutdown-grace", "1m")
	idle, inTx := server.dial(t), server.dial(t)
	defer idle.Close(context.Background())
	defer inTx.Close(context.Background())
	execAll(t, idle, "CREATE TABLE kept AS SELECT 42 AS v")
	execAll(t, inTx, "BEGIN", "INSERT INTO kept VALUES (7)")
	exited := server.terminate(t)
	exitWithin(t, exited, 20*time.Second)
	for name, conn := range map[string]*pgx.Conn{"idle": idle, "in a transaction": inTx} {
		if _, err := conn.Exec(context.Background(), "SELECT 1"); !isShutdown(err) {
			t.Errorf("the %s session after SIGTERM: %v, want 57P01", name, err)
		}
	}
	if fi, err := os.Stat(dbPath + ".wal"); err == nil && fi.Size() > 0 {
		t.Errorf("a WAL of %d bytes is left: the shutdown did not checkpoint", fi.Size())
	}
	log := server.logText(t)
	for _, step := range []string{`msg="shutting down: accepting no more clients, ending idle sessions"`, "grace=1m0s",
		`msg="shutting down: every session has ended"`, `msg="shutting down: checkpointing and closing the database"`,
		`msg="mallard stopped" err=<nil>`} {
		if !strings.Contains(log, step) {
			t.Errorf("the log does not say %s", step)
		}
	}
	conn := startMallard(t, dbPath).connect(t)
	var n, sum int
	if err := conn.QueryRow(context.Background(), "SELECT count(*), sum(v) FROM kept").Scan(&n, &sum); err != nil || n != 1 || sum != 42 {
		t.Errorf("kept after the restart: %d rows summing to %d (%v), want the open transaction's row rolled back", n, sum, err)
	}
}

// TestShutdownGrace sends SIGTERM while a statement runs: one that ends
// within --shutdown-grace completes and its client gets the result, and
// only then is its session ended; a new client is refused meanwhile. One
// that runs past the grace is canceled, and the server still exits 0.
func TestShutdownGrace(t *testing.T) {
	t.Run("statement ends within the grace", func(t *testing.T) {
		server := startMallard(t, filepath.Join(t.TempDir(), "m.duckdb"), "--log-level", "info", "--shutdown-grace", "60s")
		busy := server.dial(t)
		defer busy.Close(context.Background())
		result := make(chan error, 1)
		go func() {
			var slept bool
			err := busy.QueryRow(context.Background(), "SELECT pg_sleep(2) IS NULL").Scan(&slept)
			if err == nil && !slept {
				err = errors.New("pg_sleep(2) IS NULL is false")
			}
			result <- err
		}()
		watcher := server.connect(t)
		waitRunning(t, watcher, "pg_sleep")
		watcher.Close(context.Background())
		exited := server.terminate(t)
		server.waitLog(t, "shutting down: accepting no more clients")
		if c, err := pgx.Connect(context.Background(), connString(server.addr)); err == nil {
			c.Close(context.Background())
			t.Error("a new client was accepted after SIGTERM")
		}
		select {
		case err := <-exited:
			t.Fatalf("mallard exited (%v) before the statement completed", err)
		case err := <-result:
			if err != nil {
				t.Fatalf("the statement running at SIGTERM: %v, want it to complete", err)
			}
		}
		exitWithin(t, exited, 20*time.Second)
		if _, err := busy.Exec(context.Background(), "SELECT 1"); !isShutdown(err) {
			t.Errorf("the session after its statement: %v, want 57P01", err)
		}
		if log := server.logText(t); !strings.Contains(log, "every session has ended") || strings.Contains(log, "grace over") {
			t.Errorf("the log does not say the sessions ended within the grace:\n%s", log)
		}
	})
	t.Run("statement runs past the grace", func(t *testing.T) {
		server := startMallard(t, filepath.Join(t.TempDir(), "m.duckdb"), "--log-level", "info", "--shutdown-grace", "500")
		busy := server.dial(t)
		defer busy.Close(context.Background())
		errc := startLong(busy)
		waitRunning(t, server.connect(t), "range(")
		exited := server.terminate(t)
		if err := <-errc; !isShutdown(err) && sqlState(err) != "57014" {
			t.Errorf("the statement running past the grace: %v, want 57P01 or 57014", err)
		}
		exitWithin(t, exited, 20*time.Second)
		if log := server.logText(t); !strings.Contains(log, `msg="shutting down: grace over, canceling running statements" sessions=1`) {
			t.Errorf("the log does not say the grace ran out:\n%s", log)
		}
	})
}

// waitRunning waits until a session other than conn's is active on a
// statement that contains text.
func waitRunning(t *testing.T, conn *pgx.Conn, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		err := conn.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND strpos(query, $1) > 0",
			text).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session ran a statement with %q within 30 s", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestShutdownDuringTraining sends SIGTERM while a run trains, past a
// short grace: the run and its model version end interrupted (as after a
// kill, not canceled), keeping their last checkpoint; the server exits 0;
// and a server started on the same file resumes the run to the end.
func TestShutdownDuringTraining(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "m.duckdb")
	server := startMallard(t, dbPath, "--log-level", "info", "--shutdown-grace", "1s")
	conn := server.dial(t)
	execAll(t, conn, testserver.Unemployment(t)...)
	trained := trainUntilCheckpoint(t, server, conn)
	conn.Close(ctx)
	exited := server.terminate(t)
	if err := <-trained; !isShutdown(err) {
		t.Errorf("the training statement: %v, want 57P01", err)
	}
	exitWithin(t, exited, 30*time.Second)
	if log := server.logText(t); !strings.Contains(log, `msg="shutting down: training runs interrupted`) {
		t.Errorf("the log does not record the run interrupted:\n%s", log)
	}

	conn = startMallard(t, dbPath).connect(t)
	var runStatus, modelStatus, runError string
	var checkpoint int
	if err := conn.QueryRow(ctx, `SELECT r.status, m.status, m.checkpoint_epoch, r.error FROM mlops.training_runs r
		JOIN mlops.models m ON m.name = r.model AND m.version = r.version WHERE r.model = 'g'`).Scan(&runStatus, &modelStatus, &checkpoint, &runError); err != nil {
		t.Fatal(err)
	}
	if runStatus != "interrupted" || modelStatus != "interrupted" || checkpoint < 4 || !strings.Contains(runError, "shut down") {
		t.Errorf("g after the shutdown: run %s (%q), model %s, checkpoint epoch %d; want interrupted with its checkpoint",
			runStatus, runError, modelStatus, checkpoint)
	}
	rows, err := conn.Query(ctx, fmt.Sprintf("SELECT epoch FROM train_gat('uw', resume := 'g', epochs := %d)", checkpoint+2))
	if err != nil {
		t.Fatal(err)
	}
	epochs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(epochs) != 2 || epochs[0] != int64(checkpoint+1) {
		t.Fatalf("resume after the shutdown: epochs %v (%v), want %d and %d", epochs, err, checkpoint+1, checkpoint+2)
	}
	var status string
	if err := conn.QueryRow(ctx, "SELECT status FROM mlops.models WHERE name = 'g' AND version = 2").Scan(&status); err != nil || status != "ready" {
		t.Errorf("the resumed version is %q (%v), want ready", status, err)
	}
}

// TestShutdownGraceFlag: a negative or unparsable --shutdown-grace, by
// flag or environment, stops the server from starting, naming the flag.
func TestShutdownGraceFlag(t *testing.T) {
	for _, tt := range []struct{ name, flag, env string }{
		{"negative milliseconds", "-5", ""},
		{"negative duration", "-1s", ""},
		{"unparsable", "soon", ""},
		{"environment", "", "-2m"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"serve", "--db", filepath.Join(t.TempDir(), "m.duckdb"), "--http", "", "--listen", freePort(t)}
			if tt.flag != "" {
				args = append(args, "--shutdown-grace", tt.flag)
			}
			cmd := execMallard(t, args...)
			if tt.env != "" {
				cmd.Env = append(os.Environ(), "MALLARD_SHUTDOWN_GRACE="+tt.env)
			}
			out, err := cmd.CombinedOutput()
			var exit interface{ ExitCode() int }
			if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "shutdown-grace") {
				t.Errorf("serve --shutdown-grace %q (env %q): %v\n%s\nwant exit status 2 naming the flag", tt.flag, tt.env, err, out)
			}
		})
	}
	for v, want := range map[string]time.Duration{"0": 0, "1500": 1500 * time.Millisecond, "2m": 2 * time.Minute, " 30s ": 30 * time.Second} {
		if got, err := parseGrace(v); err != nil || got != want {
			t.Errorf("parseGrace(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	cfg, err := parseConfig(nil, &strings.Builder{})
	if err != nil || cfg.ShutdownGrace != 30*time.Second {
		t.Errorf("default -shutdown-grace = %v (%v), want 30s", cfg.ShutdownGrace, err)
	}
}
