//go:build duckdb_arrow

package functions_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
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
