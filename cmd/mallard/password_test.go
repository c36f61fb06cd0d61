package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPasswordFileAndEnvironment: the passwords may come from files
// (-password-file, -reader-password-file) or the environment
// (MALLARD_PASSWORD, MALLARD_READER_PASSWORD), kept out of the process
// list; a real server then takes them, and only a password given as a
// flag is warned about.
func TestPasswordFileAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pw")
	if err := os.WriteFile(file, []byte("from-file\r\nsecond line ignored\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MALLARD_READER_PASSWORD", "from-env")
	cfg, err := parseConfig([]string{"--password-file", file}, &bytes.Buffer{})
	if err != nil || cfg.Password != "from-file" || cfg.ReaderPassword != "from-env" || len(cfg.passwordFlags) != 0 {
		t.Fatalf("password %q, reader %q, flags %v, err %v", cfg.Password, cfg.ReaderPassword, cfg.passwordFlags, err)
	}
	for _, bad := range [][]string{{"--password-file", file, "--password", "x"}, {"--password-file", empty}, {"--password-file", filepath.Join(dir, "none")}} {
		if _, err := parseConfig(bad, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "-password-file") {
			t.Errorf("%v: %v, want an error naming -password-file", bad, err)
		}
	}

	addr := freePort(t)
	p := serveInProcess(t, "--listen", addr, "--db", ":memory:", "--http", "", "--password-file", file)
	for _, tt := range []struct {
		user, password string
		ok             bool
	}{{"mallard", "from-file", true}, {"reader", "from-env", true}, {"mallard", "from-env", false}} {
		conn, err := connectAs(addr, tt.user, tt.password)
		if (err == nil) != tt.ok {
			t.Errorf("%s with %q: %v, want success %v", tt.user, tt.password, err, tt.ok)
		}
		if conn != nil {
			conn.Close(context.Background())
		}
	}
	if strings.Contains(p.logs.String(), "password given on the command line") {
		t.Errorf("a warning without a password flag: %s", p.logs.String())
	}

	flagged := serveInProcess(t, "--listen", freePort(t), "--db", ":memory:", "--http", "", "--password", "on-the-command-line")
	waitFor(t, flagged.logs, "mallard listening")
	if !strings.Contains(flagged.logs.String(), "password given on the command line") || !strings.Contains(flagged.logs.String(), "flag=-password") {
		t.Errorf("no warning for -password: %s", flagged.logs.String())
	}
}

// connectAs connects to a server that may still be starting, retrying
// while the port refuses connections.
func connectAs(addr, user, password string) (*pgx.Conn, error) {
	host, port, _ := net.SplitHostPort(addr)
	dsn := fmt.Sprintf("host=%s port=%s user=%s password=%s sslmode=disable", host, port, user, password)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		conn, err := pgx.Connect(context.Background(), dsn)
		if err == nil || !strings.Contains(err.Error(), "refused") || time.Now().After(deadline) {
			return conn, err
		}
	}
}

// TestFailedDashboardLoginsLogged: a failed HTTP (dashboard) login is
// logged as a failed wire login is, with the client, the user, the
// failures in a row from its address and the delay they earned.
func TestFailedDashboardLoginsLogged(t *testing.T) {
	httpAddr := freePort(t)
	s := serveForTest(t, "--http", httpAddr, "--password", "pw", "--auth-delay", "10ms")
	for range 3 {
		if code := httpStatus(t, "http://"+httpAddr+"/api/models", "mallard", "wrong"); code != 401 {
			t.Fatalf("wrong password: %d, want 401", code)
		}
	}
	if code := httpStatus(t, "http://"+httpAddr+"/metrics", "intruder", "wrong"); code != 401 {
		t.Fatalf("wrong password on /metrics: %d, want 401", code)
	}
	logs := s.logs.String()
	for _, want := range []string{`msg="authentication failed" client=127.0.0.1:`, "user=mallard via=http delay=30ms", "user=intruder via=http delay=40ms"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q: %s", want, logs)
		}
	}
}
