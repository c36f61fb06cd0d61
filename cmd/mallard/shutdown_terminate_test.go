//go:build duckdb_arrow

package main

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestTerminateWithTimeout calls pg_terminate_backend(pid, timeout) as
// Postgres 14 has it, through pgx: with a timeout it returns once the
// session has ended (it is gone from pg_stat_activity), true; a session
// that cannot end in time (it is blocked writing to a client that does
// not read) is false with a WARNING; a negative timeout is 22023; an
// unknown pid is false with the usual WARNING; a NULL timeout is NULL.
func TestTerminateWithTimeout(t *testing.T) {
	s := serveForTest(t)
	bg := context.Background()
	notices := make(chan string, 8)
	admin := s.connect(t, "mallard", "", "admin", notices)
	terminate := func(pid uint32, timeout int64) (*bool, error) {
		var ok *bool
		err := admin.QueryRow(bg, "SELECT pg_terminate_backend($1, $2)", int32(pid), timeout).Scan(&ok)
		return ok, err
	}
	present := func(pid uint32) bool {
		_, ok := activity(t, admin)[pid]
		return ok
	}

	idle := s.connect(t, "mallard", "", "idle", nil)
	busy := s.connect(t, "mallard", "", "busy", nil)
	errc := startLong(busy)
	waitActive(t, admin, busy.PgConn().PID())
	for name, conn := range map[string]*pgx.Conn{"idle": idle, "running a statement": busy} {
		pid := conn.PgConn().PID()
		if ok, err := terminate(pid, 10000); err != nil || ok == nil || !*ok {
			t.Errorf("pg_terminate_backend(%s, 10000) = %v, %v; want true", name, ok, err)
		}
		if present(pid) {
			t.Errorf("the %s session is still in pg_stat_activity after pg_terminate_backend with a timeout returned", name)
		}
	}
	if err := <-errc; !isShutdown(err) {
		t.Errorf("the terminated statement: %v, want 57P01", err)
	}

	// A session blocked on a client that does not read ends only when its
	// write times out, a second after it is told to end.
	stalled := s.connect(t, "mallard", "", "stalled", nil)
	rows, err := stalled.Query(bg, "SELECT * FROM range(10000000000)")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	pid := stalled.PgConn().PID()
	time.Sleep(time.Second) // the server fills the socket's buffers in a few milliseconds, and then waits
	if ok, err := terminate(pid, 50); err != nil || ok == nil || *ok {
		t.Errorf("pg_terminate_backend(stalled, 50) = %v, %v; want false", ok, err)
	}
	wantNotice(t, notices, fmt.Sprintf("WARNING: backend with PID %d did not terminate within 50 milliseconds", pid))
	if ok, err := terminate(pid, 20000); err != nil || ok == nil || !*ok {
		t.Errorf("pg_terminate_backend(stalled, 20000) = %v, %v; want true once its write timed out", ok, err)
	}

	other := s.connect(t, "mallard", "", "other", nil)
	if _, err := terminate(other.PgConn().PID(), -1); sqlState(err) != "22023" || !strings.Contains(err.Error(), `"timeout" must not be negative`) {
		t.Errorf("a negative timeout: %v, want 22023", err)
	}
	if !present(other.PgConn().PID()) {
		t.Error("a call with a negative timeout ended the session")
	}
	if ok, err := terminate(1, 100); err != nil || ok == nil || *ok {
		t.Errorf("an unknown pid = %v, %v; want false", ok, err)
	}
	wantNotice(t, notices, "WARNING: PID 1 is not a Mallard server process")
	var null *bool
	if err := admin.QueryRow(bg, fmt.Sprintf("SELECT pg_terminate_backend(%d, NULL)", other.PgConn().PID())).Scan(&null); err != nil || null != nil {
		t.Errorf("pg_terminate_backend(pid, NULL) = %v, %v; want NULL", null, err)
	}
}

// wantNotice waits for the next notice and checks it.
func wantNotice(t *testing.T, notices <-chan string, want string) {
	t.Helper()
	select {
	case n := <-notices:
		if n != want {
			t.Errorf("notice %q, want %q", n, want)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("no notice; want %q", want)
	}
}

// TestPsqlTerminateWithTimeout ends a session from psql with a timeout,
// and shows psql the error of a negative one.
func TestPsqlTerminateWithTimeout(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not installed")
	}
	s := serveForTest(t)
	s.connect(t, "mallard", "", "idle_one", nil)
	host, port, _ := net.SplitHostPort(s.addr)
	run := func(sql string) (string, error) {
		out, err := exec.Command(psql, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "mallard",
			"-d", "mallard", "-c", sql).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	if out, err := run("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = 'idle_one'"); err != nil || out != "t" {
		t.Errorf("pg_terminate_backend(pid, 5000) in psql: %q (%v), want t", out, err)
	}
	if out, err := run("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'idle_one'"); err != nil || out != "0" {
		t.Errorf("after pg_terminate_backend with a timeout, psql sees %q sessions (%v), want 0", out, err)
	}
	out, err := run("SELECT pg_terminate_backend(pg_backend_pid(), -5)")
	if err == nil || !strings.Contains(out, `ERROR:  "timeout" must not be negative`) {
		t.Errorf("a negative timeout in psql: %q (%v), want the error", out, err)
	}
}
