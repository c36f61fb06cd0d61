//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
	"github.com/xdg-go/scram"
)

// startSCRAMServer runs a server that requires SCRAM for mallard / s3cret.
func startSCRAMServer(t *testing.T, cfg sqlfront.Config) string {
	t.Helper()
	creds, err := sqlfront.NewCredentials("mallard", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Credentials = creds
	return startServer(t, cfg)
}

var scramLogins = []struct {
	name, user, password string
	wantCode             string // empty: the login succeeds
}{
	{"right password", "mallard", "s3cret", ""},
	{"wrong password", "mallard", "s3cret!", "28P01"},
	{"other user", "postgres", "s3cret", "28P01"},
	{"other user and password", "postgres", "postgres", "28P01"},
}

// TestSCRAMWithPgx: pgx logs in with the right password and runs a query;
// every other login fails with 28P01.
func TestSCRAMWithPgx(t *testing.T) {
	addr := startSCRAMServer(t, sqlfront.Config{})
	for _, tt := range scramLogins {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			conn := login(t, passwordConnString(addr, tt.user, tt.password, "disable"), tt.wantCode)
			if conn == nil {
				return
			}
			var n int
			if err := conn.QueryRow(ctx, "SELECT 41 + 1").Scan(&n); err != nil || n != 42 {
				t.Fatalf("query after login: %d, %v", n, err)
			}
		})
	}
}

// TestReaderLogin: with a read-only role, each user logs in with its own
// password only, and only the reader's session is read-only.
func TestReaderLogin(t *testing.T) {
	reader, err := sqlfront.NewCredentials("reader", "re4d")
	if err != nil {
		t.Fatal(err)
	}
	addr := startSCRAMServer(t, sqlfront.Config{Reader: reader})
	for _, tt := range []struct {
		user, password string
		wantCode       string // of the login; empty: it succeeds
		writes         bool
	}{
		{"mallard", "s3cret", "", true},
		{"reader", "re4d", "", false},
		{"reader", "s3cret", "28P01", false},
		{"mallard", "re4d", "28P01", false},
		{"postgres", "re4d", "28P01", false},
	} {
		t.Run(tt.user+"/"+tt.password, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			conn := login(t, passwordConnString(addr, tt.user, tt.password, "disable"), tt.wantCode)
			if conn == nil {
				return
			}
			var user string
			if err := conn.QueryRow(ctx, "SELECT current_user").Scan(&user); err != nil || user != tt.user {
				t.Fatalf("current_user %q (%v), want %q", user, err, tt.user)
			}
			_, err := conn.Exec(ctx, "CREATE TEMP TABLE t AS SELECT 1 AS a")
			var pe *pgconn.PgError
			if tt.writes && err != nil || !tt.writes && (!errors.As(err, &pe) || pe.Code != "42501") {
				t.Fatalf("CREATE TEMP TABLE as %s: %v", tt.user, err)
			}
		})
	}
}

// TestSCRAMExchange runs the SASL exchange by hand. A good login ends with a
// server signature the client verifies, then ReadyForQuery; a bad one ends
// with FATAL 28P01, no AuthenticationOk, and the server closing the
// connection.
func TestSCRAMExchange(t *testing.T) {
	addr := startSCRAMServer(t, sqlfront.Config{})
	for _, tt := range scramLogins {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, addr)
			conv := c.scramStart(tt.user, tt.password)
			e, verified := c.scramFinish(conv)
			if tt.wantCode == "" {
				if !verified || len(e.errs) > 0 || e.other[len(e.other)-1] != "ReadyForQuery I" {
					t.Fatalf("login: verified %v, errors %+v, messages %v", verified, e.errs, e.other)
				}
				c.assertSelectOne()
				return
			}
			if slices.Contains(e.other, "AuthenticationOk") {
				t.Errorf("AuthenticationOk sent to a rejected client: %v", e.other)
			}
			assertFatal(t, e, tt.wantCode, tt.user)
		})
	}
	assertServesConn(t, passwordConnString(addr, "mallard", "s3cret", "disable"))
}

// scramStart sends the StartupMessage, expects a SCRAM-SHA-256 request,
// sends the client-first message and answers the server-first message.
func (c *rawClient) scramStart(user, password string) *scram.ClientConversation {
	c.t.Helper()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": user}})
	sasl, ok := c.receive().(*pgproto3.AuthenticationSASL)
	if !ok || !slices.Contains(sasl.AuthMechanisms, "SCRAM-SHA-256") {
		c.t.Fatalf("want AuthenticationSASL offering SCRAM-SHA-256, got %#v", sasl)
	}
	client, err := scram.SHA256.NewClient(user, password, "")
	if err != nil {
		c.t.Fatal(err)
	}
	conv := client.NewConversation()
	first, err := conv.Step("")
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte(first)})
	cont, ok := c.receive().(*pgproto3.AuthenticationSASLContinue)
	if !ok {
		c.t.Fatalf("want AuthenticationSASLContinue, got %#v", cont)
	}
	final, err := conv.Step(string(cont.Data))
	if err != nil {
		c.t.Fatalf("server-first message: %v", err)
	}
	c.send(&pgproto3.SASLResponse{Data: []byte(final)})
	return conv
}

// scramFinish reads the outcome of the exchange: through ReadyForQuery, or
// until the server closes the connection. verified reports a server
// signature that the client accepted.
func (c *rawClient) scramFinish(conv *scram.ClientConversation) (e ending, verified bool) {
	deadline := time.Now().Add(rawDeadline)
	for {
		c.conn.SetReadDeadline(deadline)
		msg, err := c.fe.Receive()
		if err != nil {
			e.closed = !isTimeout(err)
			return e, verified
		}
		switch m := msg.(type) {
		case *pgproto3.AuthenticationSASLFinal:
			_, err := conv.Step(string(m.Data))
			verified = err == nil && conv.Valid()
		case *pgproto3.ErrorResponse:
			e.errs = append(e.errs, *m)
			continue
		}
		e.other = append(e.other, describe(msg))
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			return e, verified
		}
	}
}

// TestSCRAMClientMisbehaves: a client that goes away or breaks the protocol
// in the middle of the SASL exchange loses only its own connection.
func TestSCRAMClientMisbehaves(t *testing.T) {
	addr := startSCRAMServer(t, sqlfront.Config{})
	startup := &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "mallard"}}
	tests := []struct {
		name string
		// steps runs the client's side; the server's answers until close are then checked.
		steps    func(c *rawClient)
		wantCode string
	}{
		{name: "close before the SASL request", steps: func(c *rawClient) {
			c.send(startup)
			c.closeWrite()
		}},
		{name: "close after the SASL request", steps: func(c *rawClient) {
			c.send(startup)
			c.receive()
			c.closeWrite()
		}},
		{name: "close after the initial response", steps: func(c *rawClient) {
			c.scramStartOnly()
			c.closeWrite()
		}},
		{name: "close before the final response", steps: func(c *rawClient) {
			c.scramStartOnly()
			c.receive()
			c.closeWrite()
		}},
		{name: "query instead of the initial response", steps: func(c *rawClient) {
			c.send(startup)
			c.receive()
			c.send(&pgproto3.Query{String: "SELECT 1"})
		}, wantCode: "08P01"},
		{name: "unoffered mechanism", steps: func(c *rawClient) {
			c.send(startup)
			c.receive()
			c.send(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256-PLUS", Data: []byte("p=tls-server-end-point,,n=,r=abc")})
		}, wantCode: "08P01"},
		{name: "garbage initial response", steps: func(c *rawClient) {
			c.send(startup)
			c.receive()
			c.send(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("hello")})
		}},
		{name: "oversized initial response", steps: func(c *rawClient) {
			// A client that has not logged in declares a 16 MiB message and
			// sends none of it: the server refuses the length at once (Postgres
			// caps an authentication token at 65535 bytes) instead of
			// allocating the body and waiting for it.
			c.send(startup)
			c.receive()
			c.write([]byte{'p', 0x01, 0x00, 0x00, 0x04})
		}, wantCode: "08P01"},
		{name: "garbage final response", steps: func(c *rawClient) {
			c.scramStartOnly()
			c.receive()
			c.send(&pgproto3.SASLResponse{Data: []byte("c=biws,r=nonce,p=AAAA")})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, addr)
			tt.steps(c)
			e := c.untilClosed()
			assertFatal(t, e, tt.wantCode, "")
			if slices.Contains(e.other, "AuthenticationOk") {
				t.Errorf("AuthenticationOk sent: %v", e.other)
			}
			assertServesConn(t, passwordConnString(addr, "mallard", "s3cret", "disable"))
		})
	}
}

// scramStartOnly sends the StartupMessage and a valid client-first message.
func (c *rawClient) scramStartOnly() {
	c.t.Helper()
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "mallard"}})
	c.receive()
	client, err := scram.SHA256.NewClient("mallard", "s3cret", "")
	if err != nil {
		c.t.Fatal(err)
	}
	first, err := client.NewConversation().Step("")
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte(first)})
}

func TestCredentialsVerify(t *testing.T) {
	creds, err := sqlfront.NewCredentials("mallard", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		user, password string
		want           bool
	}{
		{"mallard", "s3cret", true},
		{"mallard", "s3cret ", false},
		{"mallard", "", false},
		{"reader", "s3cret", false},
	} {
		if got := creds.Verify(tc.user, tc.password); got != tc.want {
			t.Errorf("Verify(%q, %q) = %v, want %v", tc.user, tc.password, got, tc.want)
		}
	}
}
