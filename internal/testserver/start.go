//go:build duckdb_arrow

package testserver

import (
	"context"
	"log/slog"
	"testing"

	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/storage"
)

// Start opens a Mallard server with cfg on a fresh in-memory database,
// recording models as of version "test" and logging nothing unless cfg
// says otherwise, and serves it until the test ends. It returns the
// server and its address.
func Start(t testing.TB, cfg server.Config) (*server.Server, string) {
	t.Helper()
	if cfg.DB.Path == "" {
		cfg.DB.Path = storage.MemoryPath
	}
	if cfg.Version == "" {
		cfg.Version = "test"
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	srv, err := server.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, Serve(t, srv.Serve, srv.Close)
}
