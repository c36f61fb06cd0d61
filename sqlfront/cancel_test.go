//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/sqlfront"
)

// longQuery runs for hours unless canceled.
const longQuery = "SELECT count(*) FROM range(10000000000000) a"

// startLongQuery runs longQuery on conn in a goroutine, through the simple
// protocol or, with extended, through Parse/Bind/Execute with a parameter.
// The channel receives the query's error.
func startLongQuery(conn *pgx.Conn, extended bool) <-chan error {
	res := make(chan error, 1)
	go func() {
		ctx := context.Background()
		if !extended {
			_, err := conn.Exec(ctx, longQuery)
			res <- err
			return
		}
		var n int64
		res <- conn.QueryRow(ctx, "SELECT count(*) FROM range($1::BIGINT) a", int64(1e13)).Scan(&n)
	}()
	return res
}

// cancelUntilDone sends CancelRequests for pc until the query reporting to
// res ends, and returns its error. A cancel that arrives before the
// statement starts is lost, as in Postgres, hence the repetition. When it
// returns, no CancelRequest is in flight.
func cancelUntilDone(t *testing.T, pc *pgconn.PgConn, res <-chan error) error {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), rawDeadline)
		err := pc.CancelRequest(ctx)
		cancel()
		if err != nil {
			t.Fatalf("CancelRequest: %v", err)
		}
		select {
		case err := <-res:
			return err
		case <-time.After(500 * time.Millisecond):
		}
	}
	t.Fatal("statement still running 10 s after CancelRequest")
	return nil
}

// assertCanceled checks that err is the 57014 of a canceled statement.
func assertCanceled(t *testing.T, err error) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("statement ended with %v, want PgError 57014", err)
	}
}

func assertSelectOnePgx(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var n int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("SELECT 1 on the same connection: %d, %v", n, err)
	}
}

// TestCancelRequest cancels a running statement from another goroutine:
// it fails with 57014, the same connection then runs SELECT 1, and a
// CancelRequest while idle does not affect the next statement. pgx sends
// the CancelRequest over TLS when the session uses TLS.
func TestCancelRequest(t *testing.T) {
	tests := []struct {
		name          string
		tls, extended bool
	}{
		{name: "simple"},
		{name: "extended", extended: true},
		{name: "tls", tls: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			connStr := connString(startServer(t, sqlfront.Config{}))
			if tt.tls {
				connStr = connString(startTLSServer(t, sqlfront.Config{})) + " sslmode=require"
			}
			conn := connectString(t, connStr)
			res := startLongQuery(conn, tt.extended)
			time.Sleep(200 * time.Millisecond)
			assertCanceled(t, cancelUntilDone(t, conn.PgConn(), res))
			assertSelectOnePgx(t, conn)

			ctx, cancel := context.WithTimeout(context.Background(), rawDeadline)
			defer cancel()
			if err := conn.PgConn().CancelRequest(ctx); err != nil {
				t.Fatal(err)
			}
			assertSelectOnePgx(t, conn)
		})
	}
}

func connectString(t *testing.T, connStr string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(connStr)
	if err != nil {
		t.Fatal(err)
	}
	return testserver.Connect(t, cfg, cfg.DefaultQueryExecMode)
}

// TestCancelRequestWrongKey: CancelRequests whose process ID or secret do
// not match leave the running statement alone; the right one then cancels it.
func TestCancelRequestWrongKey(t *testing.T) {
	addr := startServer(t, sqlfront.Config{})
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	pid := conn.PgConn().PID()
	secret := conn.PgConn().SecretKey()
	if len(secret) != 4 {
		t.Fatalf("secret key of %d bytes, want 4", len(secret))
	}
	key := binary.BigEndian.Uint32(secret)
	res := startLongQuery(conn, false)
	time.Sleep(200 * time.Millisecond)
	for _, req := range [][]byte{
		packet(u32(80877102), u32(pid), u32(key^1)),
		packet(u32(80877102), u32(pid+1), u32(key)),
		packet(u32(80877102), u32(pid^0x80000000), u32(key)),
		packet(u32(80877102), u32(pid), u32(key), u32(0)), // a 3.2-style long key
		packet(u32(80877102), u32(pid)),                   // no key at all
	} {
		c := dialRaw(t, addr)
		if err := c.write(req); err != nil {
			t.Fatal(err)
		}
		// The server closes a cancel connection once it has acted on it.
		c.conn.SetReadDeadline(time.Now().Add(rawDeadline))
		if _, err := io.Copy(io.Discard, c.conn); err != nil {
			t.Fatalf("cancel connection not closed: %v", err)
		}
	}
	select {
	case err := <-res:
		t.Fatalf("statement ended after CancelRequests with wrong keys: %v", err)
	case <-time.After(time.Second):
	}
	assertCanceled(t, cancelUntilDone(t, conn.PgConn(), res))
	assertSelectOnePgx(t, conn)
}

// TestDroppedClientEndsSession: a client that closes its socket while a
// statement runs, or while the server is blocked sending it results,
// has its statement canceled and its session released.
func TestDroppedClientEndsSession(t *testing.T) {
	tests := []struct {
		name string
		send []pgproto3.FrontendMessage
	}{
		{name: "simple query", send: []pgproto3.FrontendMessage{&pgproto3.Query{String: longQuery}}},
		{name: "extended query", send: []pgproto3.FrontendMessage{&pgproto3.Parse{Query: longQuery},
			&pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}}},
		{name: "unread results", send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "SELECT * FROM range(10000000000)"}}},
		{name: "open transaction", send: []pgproto3.FrontendMessage{&pgproto3.Query{String: "BEGIN; CREATE TABLE t (i INTEGER)"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, addr := startServerHandle(t, sqlfront.Config{})
			c := dialRaw(t, addr)
			c.startup()
			waitSessions(t, srv, 1)
			c.send(tt.send...)
			time.Sleep(200 * time.Millisecond)
			c.conn.Close()
			waitSessions(t, srv, 0)
			assertServes(t, addr)
		})
	}
}
