//go:build duckdb_arrow

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/mlops/parallel"
)

// The tests in this file's company run the real mallard binary as a child
// process, so that they can kill it with SIGKILL and read its memory use
// from /proc. The binary is built once per test binary, on first use.

var built struct {
	once sync.Once
	dir  string // removed by TestMain
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// mallardBinary returns the path of the mallard binary built from this
// package with the duckdb_arrow tag, and mpi when this test binary has it.
func mallardBinary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mallard-bin-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "mallard")
		tags := "duckdb_arrow"
		if parallel.MPI {
			tags += ",mpi"
		}
		out, err := exec.Command("go", "build", "-tags", tags, "-o", built.bin, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// mallardProcess is a mallard server running as a child process. The test
// that starts it owns it: a cleanup kills it if the test has not.
type mallardProcess struct {
	cmd    *exec.Cmd
	addr   string
	db     string        // its database file, beside which COPY FROM STDIN spools
	tmp    string        // its TMPDIR: beside the database, so the same for every process on it
	log    string        // its stdout and stderr
	exited chan struct{} // closed when the process has been waited for
	err    error         // Wait's result, once exited is closed
}

// startMallard starts the built server on dbPath with the dashboard off and
// waits until it answers a query: a restart after a crash needs no manual step.
func startMallard(t testing.TB, dbPath string, flags ...string) *mallardProcess {
	t.Helper()
	p := &mallardProcess{
		addr:   freePort(t),
		db:     dbPath,
		tmp:    filepath.Join(filepath.Dir(dbPath), "tmp"),
		log:    filepath.Join(t.TempDir(), "mallard.log"),
		exited: make(chan struct{}),
	}
	if err := os.MkdirAll(p.tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"serve", "--listen", p.addr, "--db", dbPath, "--log-level", "warn", "--http", "",
		"--data-dir", filepath.Dir(testserver.UnemploymentCSV(t))}, flags...) // a flag given again in flags wins
	p.cmd = exec.Command(mallardBinary(t), args...)
	p.cmd.Stdout, p.cmd.Stderr = logFile, logFile
	p.cmd.Env = append(os.Environ(), "TMPDIR="+p.tmp)
	killWithParent(p.cmd)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
		if t.Failed() {
			p.logTail(t)
		}
	})
	p.waitReady(t)
	return p
}

// waitReady polls until the server answers a query or exits.
func (p *mallardProcess) waitReady(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), connString(p.addr))
		if err == nil {
			_, err = conn.Exec(context.Background(), "SELECT 1")
			conn.Close(context.Background())
			if err == nil {
				return
			}
		}
		select {
		case <-p.exited:
			t.Fatalf("mallard exited while starting: %v", p.err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("mallard did not accept connections within a minute: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill sends SIGKILL and waits for the process to be gone. It fails the
// test if the process had already exited on its own.
func (p *mallardProcess) kill(t *testing.T) {
	t.Helper()
	select {
	case <-p.exited:
		t.Fatalf("mallard exited before it was killed: %v", p.err)
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
}

// running reports an error if the process has exited.
func (p *mallardProcess) running() error {
	select {
	case <-p.exited:
		return fmt.Errorf("mallard exited: %v", p.err)
	default:
		return nil
	}
}

// rssBytes reads the resident set size of the process from /proc.
func (p *mallardProcess) rssBytes() (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// spoolFiles lists COPY FROM STDIN spool files beside the database or in the process's TMPDIR,
// directly or in a spool directory of the server's.
func (p *mallardProcess) spoolFiles() []string {
	direct, _ := filepath.Glob(filepath.Join(p.tmp, "mallard-copy-*"))
	nested, _ := filepath.Glob(filepath.Join(p.tmp, "mallard-spool-*", "mallard-copy-*"))
	beside, _ := filepath.Glob(p.db + ".spool/mallard-copy-*")
	return append(append(direct, nested...), beside...)
}

// logTail logs the last lines the process wrote.
func (p *mallardProcess) logTail(t testing.TB) {
	out, err := os.ReadFile(p.log)
	if err != nil || len(out) == 0 {
		return
	}
	if len(out) > 4000 {
		out = out[len(out)-4000:]
	}
	t.Logf("mallard log (%s):\n%s", p.addr, bytes.TrimSpace(out))
}

// connect opens a connection to p that the test closes at cleanup.
func (p *mallardProcess) connect(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), connString(p.addr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// dial opens a connection to p for a goroutine that outlives the kill;
// that goroutine closes it, since a pgx connection is not safe for use by
// a cleanup and the goroutine at once.
func (p *mallardProcess) dial(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), connString(p.addr))
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func connString(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	return fmt.Sprintf("host=%s port=%s user=mallard sslmode=disable connect_timeout=10", host, port)
}

// sqlState is the SQLSTATE of a server error, or "" for any other error.
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// trainUntilCheckpoint starts a run of GAT model g on uw (see
// testserver.Unemployment) that would train for a long time,
// checkpointing every 2 epochs, as trainUntil does.
func trainUntilCheckpoint(t *testing.T, p *mallardProcess, conn *pgx.Conn) <-chan error {
	t.Helper()
	return trainUntil(t, p, conn, "SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 1000000, hidden := [4, 4], checkpoint_every := 2, patience := 0)", "g", time.Minute)
}

// trainUntil runs query, a long training run of model, on a connection of
// its own to p, and returns once conn sees a checkpoint of epoch 4 or later
// of model's newest version. The channel receives the training statement's
// error when it ends. The test fails if the run ends first, or if no such
// checkpoint comes within the time given.
func trainUntil(t *testing.T, p *mallardProcess, conn *pgx.Conn, query, model string, within time.Duration) <-chan error {
	t.Helper()
	ctx := context.Background()
	trainer := p.dial(t)
	trained := make(chan error, 1)
	go func() {
		defer trainer.Close(context.Background())
		_, err := trainer.Exec(ctx, query)
		trained <- err
	}()
	for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		var checkpoint *int
		err := conn.QueryRow(ctx, `SELECT checkpoint_epoch FROM mlops.models WHERE name = $1
			ORDER BY version DESC LIMIT 1`, model).Scan(&checkpoint)
		if err == nil && checkpoint != nil && *checkpoint >= 4 {
			return trained
		}
		select {
		case err := <-trained:
			t.Fatalf("training ended before a checkpoint of %s at epoch 4: %v", model, err)
		default:
		}
		if time.Now().After(deadline) {
			var runs string
			_ = conn.QueryRow(ctx, "SELECT string_agg(model || ' ' || status || ' ' || epochs_done, '; ') || (SELECT string_agg(name || ' ' || version || ' ' || coalesce(checkpoint_epoch, -1), '; ') FROM mlops.models) FROM mlops.training_runs").Scan(&runs)
			t.Fatalf("no checkpoint of %s at epoch 4 or later within %v (%v); runs: %s", model, within, err, runs)
		}
	}
}

// resumedTo runs query, which resumes model's first version after its
// checkpoint of epoch checkpoint and trains to checkpoint+2, and checks
// that its epochs are the two after the checkpoint and that version 2 is
// ready, resumed from version 1.
func resumedTo(t *testing.T, conn *pgx.Conn, query, model string, checkpoint int) {
	t.Helper()
	ctx := context.Background()
	rows, err := conn.Query(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	epochs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(epochs) != 2 || epochs[0] != int64(checkpoint+1) {
		t.Fatalf("resume after the crash: epochs %v (%v), want %d and %d", epochs, err, checkpoint+1, checkpoint+2)
	}
	var status, resumedFrom string
	if err := conn.QueryRow(ctx, `SELECT m.status, r.resumed_from FROM mlops.models m JOIN mlops.training_runs r USING (run_id)
		WHERE m.name = $1 AND m.version = 2`, model).Scan(&status, &resumedFrom); err != nil || status != "ready" || resumedFrom != model+"@1" {
		t.Errorf("the resumed version is %q, resumed from %q (%v); want ready, from %s@1", status, resumedFrom, err, model)
	}
}

// execAll runs each statement on conn and fails the test on the first error.
func execAll(t *testing.T, conn *pgx.Conn, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := conn.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// trainingLeft is the number of runs left marked as training.
func trainingLeft(t *testing.T, conn *pgx.Conn) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM mlops.training_runs WHERE status = 'training'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
