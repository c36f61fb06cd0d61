//go:build cgo

package statements_test

import (
	"math"
	"testing"
	"time"

	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/statements"
)

func TestGroupsByFingerprint(t *testing.T) {
	tab := statements.New(10, planner.New(plan.Catalog{}).Fingerprint)
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
	tab := statements.New(2, planner.New(plan.Catalog{}).Fingerprint)
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

// BenchmarkRecord is the cost Record adds to each statement, for a text
// already fingerprinted: 8 goroutines record into one table.
func BenchmarkRecord(b *testing.B) {
	tab := statements.New(5000, planner.New(plan.Catalog{}).Fingerprint)
	tab.Record("mallard", "select $1::int", time.Millisecond, 1)
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			tab.Record("mallard", "select $1::int", time.Millisecond, 1)
		}
	})
}
