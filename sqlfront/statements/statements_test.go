//go:build cgo

package statements_test

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/statements"
)

func TestGroupsByFingerprint(t *testing.T) {
	tab := statements.New(10, 0, planner.New(plan.Catalog{}).Fingerprint)
	tab.Record("mallard", "SELECT * FROM t WHERE id = 1", 2*time.Millisecond, 1)
	tab.Record("mallard", "select *  from t where id = 42 -- again", 4*time.Millisecond, 3)
	tab.Record("reader", "SELECT * FROM t WHERE id = 7", time.Millisecond, 1)
	tab.Record("mallard", "FROM t SELECT 1", time.Millisecond, 1) // DuckDB's dialect: its own group
	got := tab.Snapshot()
	if len(got) != 3 {
		t.Fatalf("%d groups, want 3: %+v", len(got), got)
	}
	first := got[0]
	if first.User != "mallard" || first.Calls != 2 || first.Rows != 4 || first.Query != "SELECT * FROM t WHERE id = $1" {
		t.Errorf("first group = %+v", first)
	}
	if first.TotalTime != 6 || first.MinTime != 2 || first.MaxTime != 4 || first.MeanTime != 3 || math.Abs(first.StddevTime-1) > 1e-9 {
		t.Errorf("times = total %v min %v max %v mean %v stddev %v; want 6 2 4 3 1", first.TotalTime, first.MinTime,
			first.MaxTime, first.MeanTime, first.StddevTime)
	}
	var reader, duck bool
	for _, s := range got[1:] {
		reader = reader || s.User == "reader" && s.QueryID == first.QueryID
		duck = duck || s.Query == "FROM t SELECT 1"
	}
	if !reader || !duck {
		t.Errorf("missing the reader's group or the DuckDB-dialect one: %+v", got)
	}
	tab.Reset()
	if n := len(tab.Snapshot()); n != 0 {
		t.Errorf("%d groups after Reset", n)
	}
}

func TestEvictsLeastCalled(t *testing.T) {
	tab := statements.New(2, 0, planner.New(plan.Catalog{}).Fingerprint)
	for range 3 {
		tab.Record("u", "SELECT 1", time.Millisecond, 1)
	}
	tab.Record("u", "SELECT a FROM t", time.Millisecond, 0)
	tab.Record("u", "SELECT b FROM t", time.Millisecond, 0)
	got := tab.Snapshot()
	if len(got) != 2 || got[0].Query != "SELECT $1" && got[1].Query != "SELECT $1" {
		t.Errorf("groups = %+v, want SELECT $1 kept and the table at 2", got)
	}
}

// TestLongStatementsBounded: 120 distinct statements of 1 MB each leave the
// table at its cap of 50 groups, each text cut to the query size of 300
// bytes at a character's start, the bytes it reports within 50 x (300 +
// the role's name + the per-group estimate), and the Go heap holding less
// than 32 MB more (a table that kept the texts held 240 MB); Reset
// empties it.
func TestLongStatementsBounded(t *testing.T) {
	tab := statements.New(50, 300, planner.New(plan.Catalog{}).Fingerprint)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pad := strings.Repeat("é", 1<<19) // 1 MB of two-byte characters
	for i := range 120 {
		// letters, not digits: the fingerprint takes t1 and t12 for one table's partitions
		table := strings.Map(func(r rune) rune { return r - '0' + 'a' }, strconv.Itoa(i))
		tab.Record("reader", fmt.Sprintf("SELECT '%s' FROM t_%s", pad, table), time.Millisecond, 1)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	groups, bytes := tab.Size()
	if groups != 50 || bytes > 50*(300+6+200) {
		t.Errorf("Size() = %d groups, %d bytes; want 50 groups within %d bytes", groups, bytes, 50*(300+6+200))
	}
	for _, s := range tab.Snapshot() {
		if len(s.Query) > 300 || !utf8.ValidString(s.Query) || !strings.HasPrefix(s.Query, "SELECT ") {
			t.Fatalf("kept query of %d bytes (valid UTF-8 %v): %.40q", len(s.Query), utf8.ValidString(s.Query), s.Query)
		}
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 32<<20 {
		t.Errorf("the heap grew by %d MB", grew>>20)
	}
	tab.Reset()
	if groups, bytes := tab.Size(); groups != 0 || bytes != 0 {
		t.Errorf("after Reset: %d groups, %d bytes", groups, bytes)
	}
}

// BenchmarkRecord is the cost Record adds to each statement, for a text
// already fingerprinted: 8 goroutines record into one table.
func BenchmarkRecord(b *testing.B) {
	tab := statements.New(5000, 0, planner.New(plan.Catalog{}).Fingerprint)
	tab.Record("mallard", "select $1::int", time.Millisecond, 1)
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			tab.Record("mallard", "select $1::int", time.Millisecond, 1)
		}
	})
}
