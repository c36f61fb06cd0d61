//go:build duckdb_arrow

package sqlfront_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

var updateKnown = flag.Bool("update-known", false, "rewrite testdata/known_failures/*.txt with the subtests that fail now")

// verdict is what a compatibility check reports to: *testing.T, or a
// recorder when the check is known to fail today.
type verdict interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// recorder collects a check's failures; Fatalf ends the check's goroutine.
type recorder struct{ msgs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// knownFailures is a list of subtests that fail today because of a known
// gap in Mallard's Postgres compatibility, one full test name a line, read
// from testdata/known_failures/<list>.txt. A listed subtest that fails is
// logged, not failed; a listed subtest that passes fails, so that the list
// only ever shrinks. -update-known rewrites the list from the current run.
type knownFailures struct {
	path   string
	names  map[string]bool
	mu     sync.Mutex
	failed []string
}

func loadKnownFailures(t *testing.T, list string) *knownFailures {
	k := &knownFailures{path: filepath.Join("testdata", "known_failures", list+".txt"), names: map[string]bool{}}
	f, err := os.Open(k.path)
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
				k.names[line] = true
			}
		}
	} else if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if *updateKnown {
		t.Cleanup(k.write)
	}
	return k
}

// check runs one compatibility check in the current subtest.
func (k *knownFailures) check(t *testing.T, run func(v verdict)) {
	t.Helper()
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(r)
	}()
	<-done
	name := t.Name()
	if len(r.msgs) > 0 {
		k.mu.Lock()
		k.failed = append(k.failed, name)
		k.mu.Unlock()
	}
	switch {
	case *updateKnown:
	case k.names[name] && len(r.msgs) > 0:
		t.Logf("known gap: %s", strings.Join(r.msgs, "; "))
	case k.names[name]:
		t.Errorf("passes now: remove %q from %s", name, k.path)
	case len(r.msgs) > 0:
		t.Error(strings.Join(r.msgs, "\n"))
	}
}

func (k *knownFailures) write() {
	sort.Strings(k.failed)
	body := "# Subtests that fail today because of a known Postgres-compatibility gap.\n" +
		"# Regenerate with -update-known and read the diff: entries may only disappear.\n" +
		strings.Join(k.failed, "\n") + "\n"
	os.MkdirAll(filepath.Dir(k.path), 0o755)
	os.WriteFile(k.path, []byte(body), 0o644)
}
