//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// bindModes are pgx's exec modes: the simple protocol, and the extended
// protocol with and without a Describe of the statement before Bind.
var bindModes = []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec,
	pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe, pgx.QueryExecModeDescribeExec}

// TestBindParametersInArguments: bind parameters stand for argument values
// of Mallard's functions, positional and named, in every exec mode: the
// result has the columns the values give (forecast's time column is the
// model's) with their real types, and an aggregate over a function is
// typed as the aggregate (count(*) is bigint, not text). A parameter the
// statement casts ($3::int) is described with the cast's type, so pgx
// encodes a Go int for it; DuckDB cannot tell it before the function is
// bound.
func TestBindParametersInArguments(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	setup := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	exec(t, setup, `CREATE TABLE bp AS SELECT i // 3 AS period, 'e' || (i % 3) AS entity,
		sin(i // 3 * 0.7 + i % 3) * 10 + i % 5 AS units FROM range(150) t(i)`,
		`CREATE TABLE bp_wide AS SELECT * FROM pivot_entity_time('bp', entity := 'entity', time := 'period', value := 'units')`)
	for i, mode := range bindModes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := connect(t, addr, mode)
			model := "bp" + string(rune('a'+i))
			var epochs int
			err := conn.QueryRow(ctx, "SELECT count(*) FROM train_gat($1, model := $2, epochs := $3::int, window := 4, season := 1)",
				"bp_wide", model, 2).Scan(&epochs)
			if err != nil || epochs != 2 {
				t.Fatalf("train_gat with parameters: %d epochs, %v", epochs, err)
			}
			rows, err := conn.Query(ctx, "SELECT * FROM forecast($1, steps := $2::int)", model, 1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pgx.CollectRows(rows, pgx.RowToMap)
			if err != nil {
				t.Fatalf("forecast with parameters: %v", err)
			}
			names := []string{}
			for _, f := range rows.FieldDescriptions() {
				names = append(names, f.Name)
			}
			if len(got) != 3 || len(names) < 4 || names[1] != "period" || got[0]["period"] != int64(50) {
				t.Fatalf("forecast with parameters: columns %v, rows %v; want step, period, entity, prediction... and 3 rows at period 50", names, got)
			}
			var n any
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM pivot_entity_time('bp', entity := 'entity', time := 'period', value := $1)", "units").Scan(&n); err != nil || n != int64(50) {
				t.Fatalf("count(*) over pivot_entity_time with a parameter: %#v (%T), %v; want int64 50", n, n, err)
			}
		})
	}
}

// TestDescribeBeforeBind: a statement described before any Bind (pgx's
// Prepare sends Parse, Describe and Sync) has the columns its rows will
// have where they do not depend on its parameters' values: forecast with
// its steps as a parameter is described with the model's time column and
// the real types. Where they do depend on them (forecast's model, pivot's
// time columns), the statement is not described (NoData) rather than
// described with columns it will not have, and still runs: its portal is
// described with the real ones.
func TestDescribeBeforeBind(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, `CREATE TABLE dbb AS SELECT i // 3 AS period, 'e' || (i % 3) AS entity,
		sin(i // 3 * 0.7 + i % 3) * 10 + i % 5 AS units FROM range(150) t(i)`,
		`CREATE TABLE dbb_wide AS SELECT * FROM pivot_entity_time('dbb', entity := 'entity', time := 'period', value := 'units')`,
		"SELECT count(*) FROM train_gat('dbb_wide', model := 'dbb', epochs := 1, window := 4, season := 1)")
	names := func(fields []pgconn.FieldDescription) string {
		var out []string
		for _, f := range fields {
			out = append(out, fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID))
		}
		return strings.Join(out, " ")
	}
	sd, err := conn.Prepare(ctx, "steps", "SELECT * FROM forecast('dbb', steps := $1::int)")
	if err != nil {
		t.Fatal(err)
	}
	described := names(sd.Fields)
	if !strings.HasPrefix(described, "step:20 period:20 entity:25 prediction:701") {
		t.Errorf("forecast('dbb', steps := $1::int) described before Bind as %q, want step, period, entity, prediction...", described)
	}
	rows, err := conn.Query(ctx, "steps", 2)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if rows.Err() != nil || n != 6 || names(rows.FieldDescriptions()) != described {
		t.Errorf("its rows: %d, %v, columns %q; want 6 rows with the described columns", n, rows.Err(), names(rows.FieldDescriptions()))
	}
	for _, q := range []string{"SELECT * FROM forecast($1, steps := 1)",
		"SELECT * FROM pivot_entity_time('dbb', entity := 'entity', time := $1, value := 'units')"} {
		sd, err := conn.Prepare(ctx, "", q)
		if err != nil || len(sd.Fields) != 0 {
			t.Errorf("%s described before Bind as %q (%v), want no columns", q, names(sd.Fields), err)
		}
	}
}
