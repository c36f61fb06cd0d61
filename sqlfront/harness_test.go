package sqlfront_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// startServer runs a server on a fresh in-memory database and returns its
// address; it shuts down when the test ends.
func startServer(t testing.TB, cfg sqlfront.Config) string {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ServerVersion == "" {
		cfg.ServerVersion = "15.0 (Mallard test)"
	}
	srv, err := sqlfront.New(ctx, cfg, db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-done
		if err := db.Close(sctx); err != nil {
			t.Errorf("close db: %v", err)
		}
	})
	return ln.Addr().String()
}

func connString(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	return "host=" + host + " port=" + port + " user=mallard dbname=mallard sslmode=disable"
}

// connect opens a pgx connection in the given exec mode.
func connect(t testing.TB, addr string, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
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
