//go:build !duckdb_arrow

package sqlfront_test

import (
	"testing"

	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/sqlfront/internal/memengine"
)

// startServerHandle is startServer for tests that need the server itself:
// its session count, or an explicit Shutdown. Without DuckDB (no tag
// duckdb_arrow) it serves memengine's stand-in engine and planner, on which
// the wire fuzzers and the wire-only scripts run; every other test of the
// package needs DuckDB.
func startServerHandle(t testing.TB, cfg sqlfront.Config) (*sqlfront.Server, string) {
	t.Helper()
	return serveFront(t, cfg, memengine.New(t.TempDir()), memengine.Planner{}, nil, nil)
}

// wireScriptDirs are the script directories TestWireScripts runs: without
// DuckDB, only the scripts that test the wire alone.
var wireScriptDirs = []string{"testdata/wire"}
