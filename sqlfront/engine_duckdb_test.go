//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"testing"

	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/storage"
)

// The package's tests run on the real engine when DuckDB is built in
// (tag duckdb_arrow): server.Engine over a fresh in-memory database,
// planned by package planner. Without it, only the wire fuzzers and the
// wire-only scripts build, on the stand-in of engine_mem_test.go.

// wireScriptDirs are the script directories TestWireScripts runs: on
// DuckDB, the wire-only scripts and those that need the real engine.
var wireScriptDirs = []string{"testdata/wire", "testdata/wire/engine"}

// startServerHandle is startServer for tests that need the server itself:
// its session count, or an explicit Shutdown.
func startServerHandle(t testing.TB, cfg sqlfront.Config) (*sqlfront.Server, string) {
	t.Helper()
	db, err := storage.Open(context.Background(), storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return serveFront(t, cfg, server.Engine(db), defaultPlanner(), nil, db.Close)
}

// defaultPlanner plans with sqlfront's default catalog, the one New
// installs when Config.CatalogSQL is nil.
func defaultPlanner() *planner.Planner {
	cat, _ := sqlfront.DefaultCatalog()
	return planner.New(cat)
}
