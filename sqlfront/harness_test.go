package sqlfront_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/sqlfront"
)

// startServer runs a server on a fresh in-memory database and returns its
// address; it shuts down when the test ends.
func startServer(t testing.TB, cfg sqlfront.Config) string {
	t.Helper()
	_, addr := startServerHandle(t, cfg)
	return addr
}

// serveFront starts a server for db planned by p, logging to log (nil:
// nowhere), and serves it on a local port until the test ends; then it
// shuts the server down and runs closeDB, if set. It returns the server
// and its address.
func serveFront(t testing.TB, cfg sqlfront.Config, db sqlfront.Engine, p sqlfront.Planner, log *slog.Logger,
	closeDB func(context.Context) error) (*sqlfront.Server, string) {
	t.Helper()
	if cfg.ServerVersion == "" {
		cfg.ServerVersion = "15.0 (Mallard test)"
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv, err := sqlfront.New(context.Background(), cfg, db, p, log)
	if err != nil {
		t.Fatal(err)
	}
	addr := testserver.Serve(t, srv.Serve, func(ctx context.Context) error {
		if err := srv.Shutdown(ctx); err != nil {
			return fmt.Errorf("shutdown: %w", err) // the database is still in use; closing it could block
		}
		if closeDB == nil {
			return nil
		}
		return closeDB(ctx)
	})
	return srv, addr
}

func connString(addr string) string { return testserver.ConnString(addr) }

// connect opens a pgx connection in the given exec mode.
func connect(t testing.TB, addr string, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	return connectMode(t, cfg, mode)
}

// connectMode opens a connection to cfg in exec mode mode that ends with t.
func connectMode(t testing.TB, cfg *pgx.ConnConfig, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	return testserver.Connect(t, cfg, mode)
}

// login connects with connStr. When wantCode is set the login must fail
// with that SQLSTATE, and login returns nil; otherwise it returns the
// connection, which closes when the test ends.
func login(t testing.TB, connStr, wantCode string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connStr)
	if wantCode != "" {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != wantCode {
			if err == nil {
				conn.Close(ctx)
			}
			t.Fatalf("connect: %v, want PgError %s", err, wantCode)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

var execModes = []struct {
	name string
	mode pgx.QueryExecMode
}{
	{"simple", pgx.QueryExecModeSimpleProtocol},
	{"exec", pgx.QueryExecModeExec},
	{"cache_statement", pgx.QueryExecModeCacheStatement},
	{"cache_describe", pgx.QueryExecModeCacheDescribe},
	{"describe_exec", pgx.QueryExecModeDescribeExec},
}

// forEachMode runs f once per pgx exec mode, each on its own server.
func forEachMode(t *testing.T, f func(t *testing.T, conn *pgx.Conn)) {
	for _, m := range execModes {
		t.Run(m.name, func(t *testing.T) {
			addr := startServer(t, sqlfront.Config{})
			f(t, connect(t, addr, m.mode))
		})
	}
}
