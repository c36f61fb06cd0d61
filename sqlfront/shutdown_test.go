//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

// shutdownGrace is how long Shutdown may take with misbehaving clients
// connected; nothing the server waits for legitimately takes this long.
const shutdownGrace = 5 * time.Second

// TestShutdownWithClients: Shutdown returns promptly whatever state the
// connected clients are in, and a client that is still listening is told
// 57P01. A client cannot hold the server open by stalling.
func TestShutdownWithClients(t *testing.T) {
	tests := []struct {
		name string
		// client brings a connection into the state under test.
		client func(c *rawClient)
		// want57P01 expects a FATAL 57P01 on the connection after Shutdown.
		want57P01 bool
		scram     bool // the server requires SCRAM
	}{
		{name: "idle session", want57P01: true, client: func(c *rawClient) {
			c.startup()
		}},
		{name: "running statement", want57P01: true, client: func(c *rawClient) {
			c.startup()
			c.send(&pgproto3.Query{String: longQuery})
		}},
		{name: "connected, nothing sent", client: func(c *rawClient) {}},
		{name: "half a startup packet", client: func(c *rawClient) {
			c.write(packet(startupBody(3, 0, "user", "mallard"))[:9])
		}},
		{name: "in the SASL exchange", scram: true, client: func(c *rawClient) {
			c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
				Parameters: map[string]string{"user": "mallard"}})
		}},
		{name: "not reading results", client: func(c *rawClient) {
			c.startup()
			c.send(&pgproto3.Query{String: "SELECT * FROM range(10000000000)"})
		}},
	}
	creds, err := sqlfront.NewCredentials("mallard", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := sqlfront.Config{}
			if tt.scram {
				cfg.Credentials = creds
			}
			srv, addr := startServerHandle(t, cfg)
			c := dialRaw(t, addr)
			tt.client(c)
			time.Sleep(300 * time.Millisecond)
			ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				t.Errorf("Shutdown with a client %s: %v", tt.name, err)
			}
			if !tt.want57P01 {
				return
			}
			e := c.untilClosed()
			assertFatal(t, e, "57P01", "")
		})
	}
}
