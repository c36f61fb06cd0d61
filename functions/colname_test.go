//go:build duckdb_arrow

package functions_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestCountOverTableFunction checks that count(*) over a table function
// is named count, as in Postgres, also where a list argument ([...]) makes
// the statement DuckDB's dialect rather than Postgres'.
func TestCountOverTableFunction(t *testing.T) {
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		t.Run(mode.String(), func(t *testing.T) {
			conn := connect(t, startServer(t), mode)
			exec(t, conn, "CREATE TABLE ev AS SELECT * FROM (VALUES (2020, 'a', 1.0), (2020, 'b', 2.0), (2021, 'a', 3.0), (2021, 'b', 4.0)) v(y, k, x)")
			for _, q := range []string{
				"SELECT count(*) FROM pivot_entity_time('ev', entity := 'k', time := ['y'], value := 'x')",
				"SELECT count(*) FROM pivot_entity_time('ev', entity := 'k', time := 'y', value := 'x')",
				"SELECT count(*) FROM rescale('SELECT * FROM ev')",
			} {
				rows, err := conn.Query(context.Background(), q)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				n, err := pgx.CollectOneRow(rows, pgx.RowTo[int64])
				if name := string(rows.FieldDescriptions()[0].Name); err != nil || name != "count" || n < 2 {
					t.Errorf("%s: column %q = %d (%v), want count", q, name, n, err)
				}
			}
		})
	}
}
