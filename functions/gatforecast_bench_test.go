//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BenchmarkForecastOneEntity times, on versions trained from long tables
// of 1,000 and 4,000 entities x 60 weeks (one epoch, ladder
// 'without_arima', so that training stays cheap), the median of 20
// one-entity forecasts by ets at 12 steps beside one forecast of every
// entity by ets, and prints each with the ratio of the two sizes' medians:
// a one-entity forecast that costs the steps plus what must be read grows
// far slower than the entities.
func BenchmarkForecastOneEntity(b *testing.B) {
	medians := map[int]time.Duration{}
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			conn := connect(b, startServer(b), pgx.QueryExecModeSimpleProtocol)
			exec(b, conn, fmt.Sprintf(`CREATE TABLE sales AS SELECT w AS week, 'sku' || lpad(CAST(e AS VARCHAR), 6, '0') AS sku,
				100 + e %% 50 + 10 * sin(w / 3.0 + e) + (hash(e * 1000 + w) %% 100) / 50.0 AS units FROM range(60) a(w), range(%d) b(e)`, n),
				"SELECT count(*) FROM train_gat('sales', entity := 'sku', time := 'week', value := 'units', model := 'c', epochs := 1, hidden := [4], neighbors := 5, ladder := 'without_arima', season := 1, seed := 1)")
			all := timeQuery(b, conn, "SELECT count(*) FROM forecast('c', steps := 12, level := 0.9, method := 'ets')")
			runs := make([]time.Duration, 20)
			for b.Loop() {
				for k := range runs {
					runs[k] = timeQuery(b, conn, "SELECT count(*) FROM forecast('c', steps := 12, level := 0.9, method := 'ets', entity := 'sku000001')")
				}
			}
			slices.Sort(runs)
			medians[n] = runs[len(runs)/2]
			b.Logf("%d entities: one entity %v (median of 20), every entity %v", n, medians[n], all)
			if first := medians[1000]; n == 4000 && first > 0 {
				b.Logf("one entity, 4,000 over 1,000 entities: %.2f", float64(medians[n])/float64(first))
			}
		})
	}
}

// timeQuery is the wall time of one query, its rows read.
func timeQuery(b *testing.B, conn *pgx.Conn, q string) time.Duration {
	b.Helper()
	began := time.Now()
	var n int64
	if err := conn.QueryRow(context.Background(), q).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return time.Since(began)
}
