// Package testserver serves Mallard to the tests of other packages and
// connects real clients to it: what every package's test harness would
// otherwise write again.
package testserver

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// stopGrace is how long a server gets to stop when its test ends.
const stopGrace = 10 * time.Second

// Serve serves clients with serve on a loopback port until the test ends,
// then calls stop, which must make serve return, and waits for it; it
// returns the address. A stop error fails the test (and is not waited on).
func Serve(t testing.TB, serve func(net.Listener) error, stop func(context.Context) error) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), stopGrace)
		defer cancel()
		if err := stop(ctx); err != nil {
			t.Errorf("stop server: %v", err)
			return // serve may not have returned
		}
		<-done
	})
	return ln.Addr().String()
}

// ConnString is the libpq connection string of user mallard, database
// mallard, at addr, without TLS.
func ConnString(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	return "host=" + host + " port=" + port + " user=mallard dbname=mallard sslmode=disable"
}

// Connect opens a pgx connection with cfg (not changed) in exec mode
// mode; it closes when the test ends.
func Connect(t testing.TB, cfg *pgx.ConnConfig, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg = cfg.Copy()
	cfg.DefaultQueryExecMode = mode
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
