//go:build duckdb_arrow

package sqlfront_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

// crashChildEnv marks a test binary started by inChildProcess.
const crashChildEnv = "MALLARD_TEST_CRASH_CHILD"

// inChildProcess reports whether the calling test is the child. In the
// parent it runs the test again in a child process and fails if the child
// fails or dies: a crash in cgo (DuckDB) kills the whole process, which
// would otherwise hide the result of every other test in the package.
func inChildProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(crashChildEnv) == "1" {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), crashChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		lines := strings.Split(string(out), "\n")
		t.Fatalf("test process failed (%v); first lines of its output:\n%s", err, strings.Join(lines[:min(len(lines), 25)], "\n"))
	}
	return false
}

// TestNamedParameterDoesNotCrash: DuckDB accepts named parameters ($name)
// where Postgres has only $1, $2, ...; a statement using one must fail or
// run like any other, on that connection only. The parameter's type, which
// DuckDB reports as a null logical type, must not be dereferenced.
func TestNamedParameterDoesNotCrash(t *testing.T) {
	if !inChildProcess(t) {
		return
	}
	addr := startServer(t, sqlfront.Config{})
	tests := []struct {
		name string
		send []pgproto3.FrontendMessage
	}{
		{"simple query", []pgproto3.FrontendMessage{&pgproto3.Query{String: "SELECT $E"}}},
		{"parse", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "SELECT $name::INTEGER"}, &pgproto3.Sync{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, addr)
			c.startup()
			c.send(tt.send...)
			if got := c.untilReady(); got[len(got)-1] != "ReadyForQuery I" {
				t.Fatalf("got %v, want ... ReadyForQuery I", got)
			}
			c.assertSelectOne()
		})
	}
}
