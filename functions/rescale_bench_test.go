//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// rescaleBenchColumns and rescaleBenchRows are the shape of the table
// BenchmarkRescaleCatalogue rescales: a catalogue of 10,000 products'
// weekly values over three years.
const rescaleBenchColumns, rescaleBenchRows = 10_000, 156

// rescaleCatalogueSQL creates table out as rescale(wide, stats :=
// 'per_column') does, in one statement: each column through the signed
// log, less the mean and over the population standard deviation of its
// values in the first train rows in time order.
func rescaleCatalogueSQL(out string, columns, train int) string {
	aggs, outs := make([]string, columns), make([]string, columns)
	for i := range columns {
		x := signedLog(fmt.Sprintf("e%d", i))
		aggs[i] = fmt.Sprintf("avg(%s) AS m%d, stddev_pop(%s) AS s%d", x, i, x, i)
		outs[i] = fmt.Sprintf("(%s - m%d) / s%d AS e%d", x, i, i, i)
	}
	return fmt.Sprintf(`CREATE TEMP TABLE %s AS
WITH stats AS (SELECT %s FROM (SELECT * FROM wide ORDER BY t LIMIT %d))
SELECT t, %s FROM wide, stats ORDER BY t`, out, strings.Join(aggs, ", "), train, strings.Join(outs, ", "))
}

// BenchmarkRescaleCatalogue prints rescale's time on a 10,000-column
// table against the equivalent plain SQL statement's (see
// rescaleCatalogueSQL) in the same run, and their ratio; the first
// iteration checks that the two tables agree.
func BenchmarkRescaleCatalogue(b *testing.B) {
	ctx := context.Background()
	conn := connect(b, startServer(b), pgx.QueryExecModeSimpleProtocol)
	exec(b, conn, wideSQL("wide", rescaleBenchColumns, rescaleBenchRows))
	train := rescaleBenchRows * 7 / 10 // floor(0.7 x 156), as rescale takes
	timed := func(q string) time.Duration {
		exec(b, conn, "DROP TABLE IF EXISTS r1", "DROP TABLE IF EXISTS r2")
		start := time.Now()
		exec(b, conn, q)
		return time.Since(start)
	}
	checked := false
	for b.Loop() {
		sql := timed(rescaleCatalogueSQL("r2", rescaleBenchColumns, train))
		mallard := timed(`CREATE TEMP TABLE r1 AS SELECT * FROM rescale('wide', time := 't', stats := 'per_column')`)
		b.Logf("rescale of %d rows x %d columns %.2fs, plain SQL %.2fs, ratio %.2f",
			rescaleBenchRows, rescaleBenchColumns, mallard.Seconds(), sql.Seconds(), mallard.Seconds()/sql.Seconds())
		if !checked {
			exec(b, conn, rescaleCatalogueSQL("r2", rescaleBenchColumns, train))
			var diff float64
			q := `SELECT max(abs(r1.e0 - r2.e0) + abs(r1.e4999 - r2.e4999) + abs(r1.e9999 - r2.e9999)) FROM r1 JOIN r2 USING (t)`
			if err := conn.QueryRow(ctx, q).Scan(&diff); err != nil || !(diff < 1e-9) {
				b.Fatalf("rescale and SQL differ by %g (%v)", diff, err)
			}
			checked = true
		}
	}
}
