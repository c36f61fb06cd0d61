//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

// startTLSServer runs a server with a self-signed certificate for localhost.
func startTLSServer(t *testing.T, cfg sqlfront.Config) string {
	t.Helper()
	tc, err := sqlfront.SelfSignedTLS("localhost")
	if err != nil {
		t.Fatal(err)
	}
	cfg.TLS = tc
	return startServer(t, cfg)
}

// TestTLSNegotiation connects pgx with each sslmode to a server with and
// without TLS: the connection is encrypted exactly when both sides agree,
// and require fails when the server answers SSLRequest with 'N'.
func TestTLSNegotiation(t *testing.T) {
	addrs := map[bool]string{
		true:  startTLSServer(t, sqlfront.Config{}),
		false: startServer(t, sqlfront.Config{}),
	}
	tests := []struct {
		serverTLS bool
		sslmode   string
		wantTLS   bool
		wantErr   bool
	}{
		{serverTLS: true, sslmode: "require", wantTLS: true},
		{serverTLS: true, sslmode: "prefer", wantTLS: true},
		{serverTLS: true, sslmode: "disable", wantTLS: false},
		{serverTLS: false, sslmode: "require", wantErr: true},
		{serverTLS: false, sslmode: "prefer", wantTLS: false},
		{serverTLS: false, sslmode: "disable", wantTLS: false},
	}
	for _, tt := range tests {
		name := "plain_server/" + tt.sslmode
		if tt.serverTLS {
			name = "tls_server/" + tt.sslmode
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			conn, err := pgx.Connect(ctx, connString(addrs[tt.serverTLS])+" sslmode="+tt.sslmode)
			if tt.wantErr {
				if err == nil {
					conn.Close(ctx)
					t.Fatal("connected, want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			_, isTLS := conn.PgConn().Conn().(*tls.Conn)
			if isTLS != tt.wantTLS {
				t.Errorf("connection is TLS: %v, want %v", isTLS, tt.wantTLS)
			}
			var n int
			if err := conn.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
				t.Fatalf("SELECT 1: %d, %v", n, err)
			}
		})
	}
	assertServes(t, addrs[false])
}

// TestTLSWithSCRAM: SCRAM runs inside TLS. pgx advertises channel binding
// support ('y') there, which a server offering only SCRAM-SHA-256 accepts.
func TestTLSWithSCRAM(t *testing.T) {
	tc, err := sqlfront.SelfSignedTLS("localhost")
	if err != nil {
		t.Fatal(err)
	}
	addr := startSCRAMServer(t, sqlfront.Config{TLS: tc})
	login(t, passwordConnString(addr, "mallard", "wrong", "require"), "28P01")
	assertServesConn(t, passwordConnString(addr, "mallard", "s3cret", "require"))
}

// sslRequest and gssencRequest are the 8-byte requests a client may send
// before its StartupMessage.
var (
	sslRequest    = packet(u32(80877103))
	gssencRequest = packet(u32(80877104))
)

// readByte reads the one-byte answer to SSLRequest or GSSENCRequest.
func (c *rawClient) readByte() byte {
	c.t.Helper()
	b := make([]byte, 1)
	c.conn.SetReadDeadline(time.Now().Add(rawDeadline))
	if _, err := io.ReadFull(c.conn, b); err != nil {
		c.t.Fatalf("read answer: %v", err)
	}
	return b[0]
}

// TestGSSENCRequestDeclined: GSSENCRequest is answered 'N' whether or not
// TLS is configured, and the client may go on with SSLRequest or a
// plaintext StartupMessage on the same connection.
func TestGSSENCRequestDeclined(t *testing.T) {
	tests := []struct {
		name      string
		serverTLS bool
		thenSSL   bool
	}{
		{name: "plain server, then startup"},
		{name: "tls server, then startup", serverTLS: true},
		{name: "tls server, then SSLRequest", serverTLS: true, thenSSL: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var addr string
			if tt.serverTLS {
				addr = startTLSServer(t, sqlfront.Config{})
			} else {
				addr = startServer(t, sqlfront.Config{})
			}
			c := dialRaw(t, addr)
			if err := c.write(gssencRequest); err != nil {
				t.Fatal(err)
			}
			if got := c.readByte(); got != 'N' {
				t.Fatalf("GSSENCRequest answered %q, want 'N'", got)
			}
			if tt.thenSSL {
				if err := c.write(sslRequest); err != nil {
					t.Fatal(err)
				}
				if got := c.readByte(); got != 'S' {
					t.Fatalf("SSLRequest answered %q, want 'S'", got)
				}
				tc := tls.Client(c.conn, &tls.Config{InsecureSkipVerify: true})
				tc.SetDeadline(time.Now().Add(rawDeadline))
				if err := tc.Handshake(); err != nil {
					t.Fatal(err)
				}
				c.conn, c.fe = tc, pgproto3.NewFrontend(tc, tc)
			}
			c.startup()
			c.assertSelectOne()
		})
	}
}

// TestBrokenTLSHandshake: a client that accepts 'S' and then sends
// something other than a TLS ClientHello, or nothing, loses its connection
// and nothing else.
func TestBrokenTLSHandshake(t *testing.T) {
	addr := startTLSServer(t, sqlfront.Config{})
	for _, tt := range []struct {
		name string
		send []byte
	}{
		{"plaintext startup instead of a handshake", packet(startupBody(3, 0, "user", "mallard"))},
		{"garbage", []byte("hello, world\n")},
		{"nothing", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, addr)
			if err := c.write(sslRequest); err != nil {
				t.Fatal(err)
			}
			if got := c.readByte(); got != 'S' {
				t.Fatalf("SSLRequest answered %q, want 'S'", got)
			}
			c.write(tt.send)
			c.closeWrite()
			// The server may answer with a TLS alert, which is not a
			// Postgres message; read raw bytes until it closes.
			c.conn.SetReadDeadline(time.Now().Add(rawDeadline))
			_, err := io.Copy(io.Discard, c.conn)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("server did not close the connection within %v", rawDeadline)
			}
			assertServesConn(t, connString(addr)+" sslmode=require")
		})
	}
}

// TestRequireTLS: with RequireTLS a plaintext session is refused with
// 28000 before authentication, and a TLS one is served.
func TestRequireTLS(t *testing.T) {
	addr := startTLSServer(t, sqlfront.Config{RequireTLS: true})
	login(t, connString(addr)+" sslmode=disable", "28000")
	assertServesConn(t, connString(addr)+" sslmode=require")
}

// TestMaxConnections: one session past MaxConnections is refused with
// 53300, and a place frees when a session ends.
func TestMaxConnections(t *testing.T) {
	addr := startServer(t, sqlfront.Config{MaxConnections: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var open []*pgx.Conn
	for range 2 {
		conn, err := pgx.Connect(ctx, connString(addr))
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, conn)
	}
	_, err := pgx.Connect(ctx, connString(addr))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53300" {
		t.Fatalf("third session: %v, want 53300", err)
	}
	open[0].Close(ctx)
	var conn *pgx.Conn
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if conn, err = pgx.Connect(ctx, connString(addr)); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("after one session ended: %v", err)
	}
	conn.Close(ctx)
	open[1].Close(ctx)
}
