//go:build duckdb_arrow

package functions_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/storage"
)

// forecastRows returns a forecast query's rows, each as text.
func forecastRows(t *testing.T, conn *pgx.Conn, query string) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(v...))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestForecastFromStoredState checks that a version forecasts from the
// state training kept exactly as it forecasts by fitting the ladder again:
// the same rows, intervals included, for the network and methods of the
// ladder, before and after the state is removed from the artifact (as in
// a version stored before versions kept it); that entity := 'x' gives that
// entity's rows; and that an unknown entity is refused.
func TestForecastFromStoredState(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 's', epochs := 2, scaler := 'u', seed := 1)")
	queries := map[string]string{}
	for _, method := range []string{"model", "ets", "arima", "theta", "drift", "ols", "seasonal_naive"} {
		queries[method] = fmt.Sprintf("SELECT * FROM forecast('s', steps := 14, level := 0.8, method := '%s') ORDER BY step, entity", method)
	}
	kept := map[string][]string{}
	for method, q := range queries {
		kept[method] = forecastRows(t, conn, q)
	}
	one := forecastRows(t, conn, "SELECT * FROM forecast('s', steps := 14, level := 0.8, method := 'ets', entity := 'finance') ORDER BY step")
	want := forecastRows(t, conn, "SELECT * FROM forecast('s', steps := 14, level := 0.8, method := 'ets') WHERE entity = 'finance' ORDER BY step")
	if len(one) != 14 || !reflect.DeepEqual(one, want) {
		t.Errorf("entity := 'finance': %d rows %v, want %v", len(one), one, want)
	}
	if e := errorCode(t, conn, "SELECT * FROM forecast('s', entity := 'Nowhere')"); e.Code != "22023" {
		t.Errorf("unknown entity: %s %q", e.Code, e.Message)
	}
	stripState(t, db)
	for method, q := range queries {
		if got := forecastRows(t, conn, q); !reflect.DeepEqual(got, kept[method]) {
			t.Errorf("%s: refitted %d rows, first %v; from the state %v", method, len(got), got[0], kept[method][0])
		}
	}
}

// TestEvaluateAnomaliesAutoFromStoredState checks that evaluate (over 3
// steps, with 'auto'), detect_anomalies (the network, ets and 'auto') and
// forecast with method := 'auto' give the same rows, bit for bit, from the
// fits a version keeps as from the methods fitted again after the state
// is removed from the artifact (as in a version stored before versions
// kept it).
func TestEvaluateAnomaliesAutoFromStoredState(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 's', epochs := 2, scaler := 'u', seed := 1)")
	queries := []string{
		"SELECT * FROM evaluate('s', horizon := 3) ORDER BY method, horizon",
		"SELECT * FROM detect_anomalies('s') ORDER BY year, month, entity",
		"SELECT * FROM detect_anomalies('s', method := 'ets', level := 0.95) ORDER BY year, month, entity",
		"SELECT * FROM detect_anomalies('s', method := 'auto') ORDER BY year, month, entity",
		"SELECT * FROM forecast('s', steps := 3, method := 'auto') ORDER BY step, entity",
	}
	kept := make([][]string, len(queries))
	for k, q := range queries {
		kept[k] = forecastRows(t, conn, q)
	}
	stripState(t, db)
	for k, q := range queries {
		if got := forecastRows(t, conn, q); len(got) == 0 || !reflect.DeepEqual(got, kept[k]) {
			t.Errorf("%s: refitted %d rows, from the state %d; they differ", q, len(got), len(kept[k]))
		}
	}
}

// stripState removes the forecast state from version s@1's artifact,
// with its checksum updated, as a version stored before states were kept.
func stripState(t *testing.T, db *storage.DB) {
	t.Helper()
	ctx := context.Background()
	rows, err := db.SQL().QueryContext(ctx, "SELECT data FROM mlops.artifacts WHERE name = 's' AND version = 1 ORDER BY part")
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for rows.Next() {
		var part []byte
		if err := rows.Scan(&part); err != nil {
			t.Fatal(err)
		}
		data = append(data, part...)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		t.Fatal(err)
	}
	var a map[string]json.RawMessage
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if _, ok := a["state"]; !ok {
		t.Fatal("the artifact keeps no state")
	}
	delete(a, "state")
	data, err = json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	sum := mlops.Checksum(data)
	if _, err := db.SQL().ExecContext(ctx, "DELETE FROM mlops.artifacts WHERE name = 's' AND version = 1 AND part > 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, "UPDATE mlops.artifacts SET data = ?, size = ?, checksum = ? WHERE name = 's' AND version = 1",
		data, len(data), sum); err != nil {
		t.Fatal(err)
	}
	tamper(t, db, fmt.Sprintf("UPDATE mlops.models SET artifact_checksum = '%s' WHERE name = 's' AND version = 1", sum))
}
