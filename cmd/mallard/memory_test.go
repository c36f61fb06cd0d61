//go:build duckdb_arrow

package main

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestMemoryLimitBindsPivot: with --memory-limit 256MB a pivot whose result
// (12,000 times x 2,000 entities, 216 MB) does not fit beside DuckDB's
// share fails with 53200 before it reads the source a second time, naming
// the setting and the sizes, and the server answers the next query. Two
// pivots of 108 MB each, more than half of what Mallard may reserve, run
// one after the other: the first gave its memory back.
func TestMemoryLimitBindsPivot(t *testing.T) {
	ctx := context.Background()
	server := startMallard(t, filepath.Join(t.TempDir(), "mem.duckdb"), "--memory-limit", "256MB")
	conn := server.connect(t)
	execAll(t, conn, `CREATE TABLE wide AS SELECT i % 2000 AS entity, i AS period, 1.0 AS v FROM range(12000) t(i)`)
	pivot := func(periods int) string {
		return `SELECT count(*) FROM pivot_entity_time('SELECT * FROM wide WHERE period < ` + strconv.Itoa(periods) +
			`', entity := 'entity', time := 'period', value := 'v', missing := 'null')`
	}
	var n int64
	err := conn.QueryRow(ctx, pivot(12000)).Scan(&n)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53200" {
		t.Fatalf("a pivot past the memory limit gave %v, want 53200", err)
	}
	for _, part := range []string{"pivot_entity_time's result (12000 rows x 2001 columns)", "206.", "memory_limit 256MB", "244.1 MiB"} {
		if !strings.Contains(pe.Message, part) {
			t.Errorf("message %q does not name %q", pe.Message, part)
		}
	}
	if err := server.running(); err != nil {
		t.Fatalf("server after the refused pivot: %v", err)
	}
	for range 2 {
		if err := conn.QueryRow(ctx, pivot(6000)).Scan(&n); err != nil || n != 6000 {
			t.Fatalf("a pivot within the limit gave %d rows, %v; want 6000", n, err)
		}
	}
}
