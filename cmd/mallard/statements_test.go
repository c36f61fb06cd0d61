package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// statementGroup is a row of pg_stat_statements.
type statementGroup struct {
	queryID           int64
	calls, rows       int64
	total, mean, maxT float64
	user              string
}

func statementStats(t *testing.T, conn *pgx.Conn) map[string]statementGroup {
	t.Helper()
	rows, err := conn.Query(context.Background(),
		"SELECT queryid, query, calls, rows, total_exec_time, mean_exec_time, max_exec_time, usename FROM pg_stat_statements")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	wantOIDs := []uint32{20, 25, 20, 20, 701, 701, 701, 19}
	for i, f := range rows.FieldDescriptions() {
		if f.DataTypeOID != wantOIDs[i] {
			t.Errorf("column %s has type OID %d, want %d", f.Name, f.DataTypeOID, wantOIDs[i])
		}
	}
	out := map[string]statementGroup{}
	for rows.Next() {
		var g statementGroup
		var query string
		if err := rows.Scan(&g.queryID, &query, &g.calls, &g.rows, &g.total, &g.mean, &g.maxT, &g.user); err != nil {
			t.Fatal(err)
		}
		out[g.user+": "+query] = g
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPgStatStatements runs statements through pgx in both protocols and
// reads their statistics back: grouped by normalised text, counted,
// timed, hidden from the read-only role where another role ran them, and
// reset by the owner only.
func TestPgStatStatements(t *testing.T) {
	s := serveForTest(t, "--password", "pw", "--reader-password", "rpw")
	bg := context.Background()
	owner := s.connect(t, "mallard", "pw", "stats", nil)
	reader := s.connect(t, "reader", "rpw", "stats", nil)
	for i := range 5 {
		var v int32
		if err := owner.QueryRow(bg, "SELECT $1::int", i).Scan(&v); err != nil || v != int32(i) {
			t.Fatal(v, err)
		}
	}
	for _, q := range []string{"SELECT 1 + 2", "select 1 +  40 -- other constants, same statement"} {
		if _, err := owner.Exec(bg, q, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := owner.Exec(bg, "SELECT 1/0"); err == nil {
		t.Fatal("1/0 succeeded")
	}
	if _, err := reader.Exec(bg, "SELECT 7 * 6"); err != nil {
		t.Fatal(err)
	}
	got := statementStats(t, owner)
	param, ok := got["mallard: SELECT $1::int"]
	if !ok || param.calls != 5 || param.rows != 5 || param.total <= 0 || param.maxT > param.total || param.queryID == 0 {
		t.Errorf("SELECT $1::int: %+v (found %v); want 5 calls, 5 rows, some time", param, ok)
	}
	if diff := param.mean - param.total/float64(param.calls); diff > 1e-9 || diff < -1e-9 {
		t.Errorf("mean %v is not total/calls %v", param.mean, param.total/float64(param.calls))
	}
	if g := got["mallard: SELECT $1 + $2"]; g.calls != 2 {
		t.Errorf("SELECT $1 + $2 grouped %d calls, want 2 (constants differ, statement is the same): %v", g.calls, got)
	}
	for k := range got {
		if k == "mallard: SELECT $1/$2" {
			t.Errorf("a failed statement was counted: %v", got)
		}
	}
	if _, ok := got["reader: SELECT $1 * $2"]; !ok {
		t.Errorf("the owner does not see the reader's statement: %v", got)
	}
	asReader := statementStats(t, reader)
	if _, ok := asReader["mallard: <insufficient privilege>"]; !ok {
		t.Errorf("the reader sees the owner's statements: %v", asReader)
	}
	if _, ok := asReader["reader: SELECT $1 * $2"]; !ok {
		t.Errorf("the reader does not see its own statement: %v", asReader)
	}
	var pe *pgconn.PgError
	if _, err := reader.Exec(bg, "SELECT pg_stat_statements_reset()"); !errors.As(err, &pe) || pe.Code != "42501" {
		t.Errorf("reader's reset: %v, want 42501", err)
	}
	var at time.Time
	if err := owner.QueryRow(bg, "SELECT pg_stat_statements_reset()").Scan(&at); err != nil || time.Since(at) > time.Minute {
		t.Fatalf("reset = %v, %v", at, err)
	}
	after := statementStats(t, owner)
	if _, ok := after["mallard: SELECT $1::int"]; ok || len(after) > 1 {
		t.Errorf("after reset: %v, want at most the reset itself", after)
	}
}
