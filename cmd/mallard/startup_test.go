//go:build duckdb_arrow

package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestVersionFlag runs the binary with each spelling of the version
// command.
func TestVersionFlag(t *testing.T) {
	want := regexp.MustCompile(`^mallard ` + regexp.QuoteMeta(Version) + ` \(DuckDB v?\d+\.\d+\.\d+\)\n$`)
	for _, arg := range []string{"version", "--version", "-version"} {
		out, err := exec.Command(mallardBinary(t), arg).Output()
		if err != nil || !want.Match(out) {
			t.Errorf("mallard %s: %q (%v), want %s", arg, out, err, want)
		}
	}
}

// TestPortTakenLeavesNoDatabase runs the binary on a taken Postgres port
// and on a taken dashboard port: it must fail naming the address, and
// create no database file.
func TestPortTakenLeavesNoDatabase(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	busy := taken.Addr().String()
	for _, tt := range []struct{ name, listen, http string }{
		{"postgres port", busy, ""},
		{"dashboard port", freePort(t), busy},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "new.duckdb")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, mallardBinary(t), "serve", "--listen", tt.listen, "--http", tt.http, "--db", db).CombinedOutput()
			if err == nil || !strings.Contains(string(out), busy) {
				t.Errorf("serve on a taken port: %v\n%s\nwant a failure naming %s", err, out, busy)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				t.Errorf("serve on a taken port left %s behind", e.Name())
			}
		})
	}
}
