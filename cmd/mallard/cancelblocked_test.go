package main

import (
	"context"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestCancelEndsStatementBlockedOnClient: a statement whose client stopped
// reading its large result, so that the server blocks writing to the
// socket, still ends when canceled by a CancelRequest, by
// pg_cancel_backend or by statement_timeout: the write gives up, the
// server logs the 57014 and closes that connection (its result cannot be
// delivered), and it serves other clients. Before, only
// pg_terminate_backend ended it.
func TestCancelEndsStatementBlockedOnClient(t *testing.T) {
	s := serveForTest(t)
	bg := context.Background()
	observer := s.connect(t, "mallard", "", "observer", nil)
	for _, how := range []string{"CancelRequest", "pg_cancel_backend", "statement_timeout"} {
		t.Run(how, func(t *testing.T) {
			c := dialSmallBuffer(t, s.addr)
			key := c.startup(t)
			if how == "statement_timeout" {
				c.query(t, "SET statement_timeout = '1s'")
			}
			c.fe.Send(&pgproto3.Query{String: "SELECT repeat('x', 1000) || range AS filler FROM range(100000000)"})
			if err := c.fe.Flush(); err != nil {
				t.Fatal(err)
			}
			waitState(t, observer, key.ProcessID, "active")
			// The first byte of the result has arrived: rows flow faster than
			// the buffers can hold, and in a second the server's write blocks.
			c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			if _, err := c.conn.Read(make([]byte, 1)); err != nil {
				t.Fatalf("no result: %v", err)
			}
			time.Sleep(time.Second)
			switch how {
			case "CancelRequest":
				cc, err := net.Dial("tcp", s.addr)
				if err != nil {
					t.Fatal(err)
				}
				defer cc.Close()
				fe := pgproto3.NewFrontend(cc, cc)
				fe.Send(&pgproto3.CancelRequest{ProcessID: key.ProcessID, SecretKey: key.SecretKey})
				if err := fe.Flush(); err != nil {
					t.Fatal(err)
				}
			case "pg_cancel_backend":
				var ok bool
				if err := observer.QueryRow(bg, "SELECT pg_cancel_backend($1)", int32(key.ProcessID)).Scan(&ok); err != nil || !ok {
					t.Fatalf("pg_cancel_backend: %v, %v", ok, err)
				}
			}
			waitState(t, observer, key.ProcessID, "") // the session has ended
			logs := s.logs.String()
			if !strings.Contains(logs, "statement canceled while the client was not reading its result") || !strings.Contains(logs, "57014") {
				t.Errorf("no 57014 logged for the undeliverable result: %s", logs)
			}
			var one int
			if err := s.connect(t, "mallard", "", "after", nil).QueryRow(bg, "SELECT 1").Scan(&one); err != nil || one != 1 {
				t.Errorf("SELECT 1 after: %d, %v", one, err)
			}
		})
	}
}

// blockedClient is a raw protocol client with a small receive buffer.
type blockedClient struct {
	conn net.Conn
	fe   *pgproto3.Frontend
}

// dialSmallBuffer connects with a 4 KiB receive buffer, so that a result
// the client does not read soon blocks the server's writes.
func dialSmallBuffer(t *testing.T, addr string) *blockedClient {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second, Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) }); err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &blockedClient{conn: conn, fe: pgproto3.NewFrontend(conn, conn)}
}

// startup logs in as mallard and returns the session's cancel key.
func (c *blockedClient) startup(t *testing.T) *pgproto3.BackendKeyData {
	t.Helper()
	c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "mallard"}})
	if err := c.fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var key *pgproto3.BackendKeyData
	c.untilReady(t, func(msg pgproto3.BackendMessage) {
		if k, ok := msg.(*pgproto3.BackendKeyData); ok {
			key = &pgproto3.BackendKeyData{ProcessID: k.ProcessID, SecretKey: append([]byte(nil), k.SecretKey...)}
		}
	})
	return key
}

func (c *blockedClient) query(t *testing.T, sql string) {
	t.Helper()
	c.fe.Send(&pgproto3.Query{String: sql})
	if err := c.fe.Flush(); err != nil {
		t.Fatal(err)
	}
	c.untilReady(t, func(msg pgproto3.BackendMessage) {
		if e, ok := msg.(*pgproto3.ErrorResponse); ok {
			t.Fatalf("%s: %s", sql, e.Message)
		}
	})
}

func (c *blockedClient) untilReady(t *testing.T, each func(pgproto3.BackendMessage)) {
	t.Helper()
	for {
		c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		msg, err := c.fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		each(msg)
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			return
		}
	}
}

// waitState polls pg_stat_activity until session pid is in state want
// ("" for no longer there), failing after 20 s.
func waitState(t *testing.T, conn *pgx.Conn, pid uint32, want string) {
	t.Helper()
	var state string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		state = ""
		err := conn.QueryRow(context.Background(), "SELECT coalesce(max(state), '') FROM pg_stat_activity WHERE pid = $1", int32(pid)).Scan(&state)
		if err == nil && state == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d is %q after 20 s, want %q (%v)", pid, state, want, err)
		}
	}
}
