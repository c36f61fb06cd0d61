//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// serveLogged is startServerHandle with the server's log in logs.
func serveLogged(t *testing.T, cfg sqlfront.Config, logs *testserver.LogBuffer) (*sqlfront.Server, string) {
	t.Helper()
	db, err := storage.Open(context.Background(), storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return serveFront(t, cfg, server.Engine(db), defaultPlanner(), slog.New(slog.NewTextHandler(logs, nil)), db.Close)
}

// TestAuthenticationTimeout: a connection that never finishes startup is
// closed once AuthenticationTimeout has passed, and logged.
func TestAuthenticationTimeout(t *testing.T) {
	var logs testserver.LogBuffer
	srv, addr := serveLogged(t, sqlfront.Config{AuthenticationTimeout: 300 * time.Millisecond}, &logs)
	c := dialRaw(t, addr)
	c.write(packet(u32(1234<<16 | 5678))[:5]) // half a startup packet, never finished
	if e := c.untilClosed(); !e.closed {
		t.Fatalf("the connection is still open %s after connecting: %+v", rawDeadline, e)
	}
	if srv.Starting() != 0 {
		t.Errorf("%d connections still starting", srv.Starting())
	}
	if !strings.Contains(logs.String(), "startup timed out") || !strings.Contains(logs.String(), "authentication_timeout=300ms") {
		t.Errorf("the timeout is not logged: %s", logs.String())
	}
	assertServes(t, addr)
}

// TestStartupsAreBounded: connections that have not finished startup are
// capped (by default at MaxConnections): one more is refused with 53300,
// logged, and the server serves clients again once they are gone.
func TestStartupsAreBounded(t *testing.T) {
	var logs testserver.LogBuffer
	srv, addr := serveLogged(t, sqlfront.Config{MaxConnections: 2}, &logs)
	idle := []*rawClient{dialRaw(t, addr), dialRaw(t, addr)}
	for deadline := time.Now().Add(10 * time.Second); srv.Starting() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections starting, want 2", srv.Starting())
		}
	}
	e := dialRaw(t, addr).untilClosed()
	if !e.closed || len(e.errs) != 1 || e.errs[0].Code != "53300" {
		t.Fatalf("a connection past the bound: %+v, want a 53300 and the connection closed", e)
	}
	if !strings.Contains(logs.String(), "too many connections in startup") {
		t.Errorf("the refusal is not logged: %s", logs.String())
	}
	for _, c := range idle {
		c.conn.Close()
	}
	for deadline := time.Now().Add(10 * time.Second); srv.Starting() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections starting after the clients closed them", srv.Starting())
		}
	}
	assertServes(t, addr)
}

// TestFailedLoginsDelayed: each failed login from an address is answered
// after a delay that grows with the failures in a row (AuthDelay each, at
// most MaxAuthDelay), as the server records and logs; a successful login
// forgets them.
func TestFailedLoginsDelayed(t *testing.T) {
	creds, err := sqlfront.NewCredentials("mallard", "right")
	if err != nil {
		t.Fatal(err)
	}
	var logs testserver.LogBuffer
	srv, addr := serveLogged(t, sqlfront.Config{Credentials: creds, AuthDelay: 10 * time.Millisecond, MaxAuthDelay: 35 * time.Millisecond}, &logs)
	for i, want := range []time.Duration{10, 20, 30, 35, 35} {
		login(t, passwordConnString(addr, "mallard", "wrong", "disable"), "28P01")
		attempts, delay := srv.FailedLogins("127.0.0.1")
		if attempts != i+1 || delay != want*time.Millisecond {
			t.Errorf("after %d failures: recorded %d, delay %v; want %d, %v", i+1, attempts, delay, i+1, want*time.Millisecond)
		}
	}
	// The server logs a failed login once its connection has ended, which
	// may be after the client has read the error; each line carries the
	// count of its own login, not the address's count when it is written.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "failures=5 delay=35ms"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the delay is not logged: %s", logs.String())
		}
	}
	for i, want := range []string{"failures=1 delay=10ms", "failures=2 delay=20ms", "failures=3 delay=30ms", "failures=4 delay=35ms"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("failure %d is not logged with its own count and delay (%s): %s", i+1, want, logs.String())
		}
	}
	login(t, passwordConnString(addr, "mallard", "right", "disable"), "")
	if attempts, _ := srv.FailedLogins("127.0.0.1"); attempts != 0 {
		t.Errorf("%d failures remembered after a successful login", attempts)
	}
}
