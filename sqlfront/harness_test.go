package sqlfront_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
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
