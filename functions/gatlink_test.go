//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestForecastOneEntityLong checks, on a version trained from a long table
// of 300 entities (so linked to the scaler train_gat kept), that
// forecast(entity := e) gives exactly the rows of e in the forecast of
// every entity, in original units and with their intervals, for methods of
// the ladder and for entities at both ends of the scaler's columns; that
// each entity is unscaled with its own column (last_value forecasts its
// last units); and
// that a scaler that lost an entity's column is refused with 22023 naming
// it.
func TestForecastOneEntityLong(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, `CREATE TABLE sales AS SELECT w AS week, 'sku' || lpad(CAST(e AS VARCHAR), 4, '0') AS sku,
		100 + e + 10 * sin(w / 3.0 + e) + (hash(e * 1000 + w) % 100) / 50.0 AS units FROM range(40) a(w), range(300) b(e)`,
		"SELECT count(*) FROM train_gat('sales', entity := 'sku', time := 'week', value := 'units', model := 'one', epochs := 1, hidden := [4], neighbors := 5, ladder := 'without_arima', season := 1, seed := 1)")
	for _, method := range []string{"ets", "drift", "last_value"} {
		for _, entity := range []string{"sku0000", "sku0123", "sku0299"} {
			one := forecastRows(t, conn, fmt.Sprintf("SELECT * FROM forecast('one', steps := 5, level := 0.8, method := '%s', entity := '%s') ORDER BY step", method, entity))
			all := forecastRows(t, conn, fmt.Sprintf("SELECT * FROM forecast('one', steps := 5, level := 0.8, method := '%s') WHERE entity = '%s' ORDER BY step", method, entity))
			if len(one) != 5 || !reflect.DeepEqual(one, all) {
				t.Errorf("%s, entity := '%s': %d rows %v, want %v", method, entity, len(one), one, all)
			}
		}
	}
	var worst float64
	if err := conn.QueryRow(context.Background(), `SELECT max(abs(f.prediction - s.units) / s.units) FROM forecast('one', method := 'last_value') f
		JOIN sales s ON s.sku = f.entity AND s.week = 39`).Scan(&worst); err != nil || worst > 1e-9 {
		t.Errorf("last_value is not each entity's last units in original units: worst relative error %g (%v)", worst, err)
	}
	if _, err := db.SQL().ExecContext(context.Background(), `UPDATE mlops.scalers SET columns = list_transform(columns, c -> CASE WHEN c = 'sku0007' THEN 'gone' ELSE c END)
		WHERE name = (SELECT scaler FROM mlops.models WHERE name = 'one')`); err != nil {
		t.Fatal(err)
	}
	e := errorCode(t, conn, "SELECT * FROM forecast('one', method := 'ets', entity := 'sku0123')")
	if e.Code != "22023" || !strings.Contains(e.Message, "has no column sku0007") {
		t.Errorf("scaler without sku0007: %s %q", e.Code, e.Message)
	}
}
