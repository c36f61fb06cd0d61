//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestRescaleWide: a source of more columns than one row of aggregates
// takes (its moments are computed unpivoted) rescales each column as a
// narrow call over that column alone does with per-column statistics, and
// as the formula says with global ones; NULLs and infinities included.
func TestRescaleWide(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	var cols []string
	for k := range 40 {
		cols = append(cols, fmt.Sprintf(`CASE WHEN i %% 17 = %d THEN NULL WHEN i = %d THEN 'inf'::DOUBLE ELSE (i * %d) %% 101 - 50.5 END AS c%d`,
			k%17, 60+k, k+3, k))
	}
	exec(t, conn, "CREATE TABLE wide AS SELECT i AS day, "+strings.Join(cols, ", ")+" FROM range(120) t(i)")
	check := func(name, q string) {
		t.Helper()
		var diff float64
		var rows int64
		if err := conn.QueryRow(ctx, q).Scan(&diff, &rows); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rows < 90 || !(diff < 1e-9) {
			t.Errorf("%s: differs by %g over %d rows", name, diff, rows)
		}
	}
	check("per_column", `SELECT sum(abs(a.c0 - b.c0)) + sum(abs(a.c39 - b.c39)), count(*)
FROM (SELECT * FROM rescale('wide', time := 'day', stats := 'per_column')) a
JOIN (SELECT * FROM rescale('SELECT day, c0, c39 FROM wide', time := 'day', stats := 'per_column')) b USING (day)
WHERE isfinite(a.c0) AND isfinite(a.c39)`)
	// floor(0.7 * 120) = 84 training rows; global statistics pool all their finite cells.
	check("global", `WITH cells AS (SELECT `+signedLog("x")+` AS y FROM (UNPIVOT (SELECT * FROM wide ORDER BY day LIMIT 84)
  ON COLUMNS(* EXCLUDE (day)) INTO NAME k VALUE x) WHERE isfinite(x)),
stats AS (SELECT avg(y) AS m, stddev_pop(y) AS s FROM cells)
SELECT sum(abs(a.c7 - (`+signedLog("w.c7")+` - m) / s)), count(*)
FROM rescale('wide', time := 'day') a JOIN wide w USING (day), stats WHERE isfinite(a.c7)`)
}
