//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestEvaluateHorizons checks evaluate's horizon rows: one per method and
// step, the horizon-1 rows carrying the one-step columns, rel_mse 1 for
// last_value, MASE and original units filled, and bad horizons refused.
func TestEvaluateHorizons(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'h', epochs := 5, scaler := 'u')")
	// Without highway := n the highway has max(4, season) lags; the season
	// of the monthly data is detected.
	var season, highway, anchor string
	if err := conn.QueryRow(ctx, `SELECT hyperparameters->>'season', hyperparameters->>'highway', hyperparameters->>'anchor'
		FROM mlops.models WHERE name = 'h'`).Scan(&season, &highway, &anchor); err != nil || season != "12" || highway != "12" || anchor != "auto" {
		t.Errorf("season %s, highway %s, anchor %s (%v), want 12, 12, auto", season, highway, anchor, err)
	}
	rows, err := conn.Query(ctx, `SELECT method, horizon, test_mse, val_mse, mse, rmse, mae, mase, rel_mse, mse_original
		FROM evaluate('h', horizon := 3) ORDER BY method, horizon`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
		var method string
		var horizon int64
		var test, val *float64
		var mse, rmse, mae, mase, rel, orig float64
		if err := rows.Scan(&method, &horizon, &test, &val, &mse, &rmse, &mae, &mase, &rel, &orig); err != nil {
			t.Fatal(err)
		}
		if (horizon == 1) != (test != nil) || (horizon == 1) != (val != nil) {
			t.Errorf("%s step %d: one-step columns test_mse %v val_mse %v, want them on step 1 only", method, horizon, test, val)
		}
		if math.Abs(rmse*rmse-mse) > 1e-12 || !(mae > 0) || !(mase > 0) || !(orig > mse) {
			t.Errorf("%s step %d: mse %v rmse %v mae %v mase %v original %v", method, horizon, mse, rmse, mae, mase, orig)
		}
		if method == "last_value" && rel != 1 {
			t.Errorf("last_value step %d: rel_mse %v, want 1", horizon, rel)
		}
	}
	if err := rows.Err(); err != nil || n != 33 {
		t.Errorf("%d rows (%v), want 11 methods (arima and auto too) x 3 steps", n, err)
	}
	// Horizon 1 over every test row is the one-step test MSE.
	var test, mse float64
	if err := conn.QueryRow(ctx, "SELECT test_mse, mse FROM evaluate('h') WHERE method = 'gat'").Scan(&test, &mse); err != nil || math.Abs(test-mse) > 1e-12*test {
		t.Errorf("horizon 1: test_mse %v, mse %v (%v)", test, mse, err)
	}
	e := errorCode(t, conn, "SELECT * FROM evaluate('h', horizon := 38)")
	if e.Code != "22023" || !strings.Contains(e.Message, "horizon := 38 is beyond the test span of 37 rows") {
		t.Errorf("horizon 38: %s %q", e.Code, e.Message)
	}
}

// TestPerEntityChoice checks method 'auto' per entity: evaluate_entities
// scores every method on every entity and marks as chosen, for each
// entity, the one with the lowest validation MSE; forecast's NOTICE counts
// those choices; evaluate's auto row at horizon 1 scores them, its MSE
// the mean of the chosen methods' test MSEs (every entity has as many test
// rows); and forecast 'auto' forecasts each entity as its method does.
func TestPerEntityChoice(t *testing.T) {
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'p', epochs := 5, scaler := 'u')")
	exec(t, conn, "CREATE TABLE ee AS SELECT * FROM evaluate_entities('p')")
	if bad := scanOne[int64](t, conn, `SELECT count(*) FROM (SELECT entity, count(*) FILTER (WHERE chosen) AS c,
		min(val_mse) AS low, min(val_mse) FILTER (WHERE chosen) AS mine FROM ee GROUP BY entity) WHERE c <> 1 OR low <> mine`); bad != 0 {
		t.Errorf("%d entities without exactly one chosen method, the lowest on validation", bad)
	}
	if n := scanOne[int64](t, conn, "SELECT count(DISTINCT entity) FROM ee"); n != 14 {
		t.Errorf("%d entities in evaluate_entities, want 14", n)
	}
	var auto, chosen float64
	if err := conn.QueryRow(ctx, `SELECT (SELECT mse FROM evaluate('p') WHERE method = 'auto'),
		(SELECT avg(test_mse) FROM ee WHERE chosen)`).Scan(&auto, &chosen); err != nil || math.Abs(auto-chosen) > 1e-9*chosen {
		t.Errorf("evaluate's auto MSE %v, the chosen methods' mean test MSE %v (%v)", auto, chosen, err)
	}
	notices = nil
	exec(t, conn, "CREATE TABLE fa AS SELECT * FROM forecast('p', steps := 1, method := 'auto')")
	counted := 0
	for _, part := range strings.Split(strings.TrimPrefix(notices[0], "forecast: method 'auto' chose each entity's method by its validation MSE over steps 1..1: "), ", ") {
		var n int
		var name string
		if _, err := fmt.Sscanf(part, "%s for %d", &name, &n); err != nil {
			t.Fatalf("notice part %q: %v", part, err)
		}
		counted += n
	}
	if counted != 14 {
		t.Errorf("notice %q counts %d entities, want 14", notices[0], counted)
	}
	var method string
	if err := conn.QueryRow(ctx, "SELECT method FROM ee WHERE chosen AND entity = 'finance'").Scan(&method); err != nil {
		t.Fatal(err)
	}
	if method == "gat" {
		method = "model"
	}
	var diff float64
	if err := conn.QueryRow(ctx, `SELECT abs(a.prediction - b.prediction) FROM fa a JOIN forecast('p', steps := 1, method := '`+method+`') b
		USING (entity) WHERE entity = 'finance'`).Scan(&diff); err != nil || diff > 1e-9 {
		t.Errorf("auto's forecast of finance differs from its method %s's by %v (%v)", method, diff, err)
	}
}

// TestForecastMethods checks forecast's methods and intervals: lo <=
// prediction <= hi, wider intervals at a higher level, a baseline's
// forecast equal to what it must be, 'auto' naming its choice, and bad
// methods and levels refused.
func TestForecastMethods(t *testing.T) {
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeCacheStatement, &notices)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'f', epochs := 5, scaler := 'u')")
	var bad int
	if err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE NOT (lo < prediction AND prediction < hi))
		FROM forecast('f', steps := 4, level := 0.8)`).Scan(&bad); err != nil || bad != 0 {
		t.Errorf("%d forecasts outside their interval (%v)", bad, err)
	}
	var narrower int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM forecast('f', steps := 2, level := 0.5) a
		JOIN forecast('f', steps := 2, level := 0.95) b USING (step, entity) WHERE b.hi - b.lo <= a.hi - a.lo`).Scan(&narrower); err != nil || narrower != 0 {
		t.Errorf("%d intervals at level 0.95 no wider than at 0.5 (%v)", narrower, err)
	}
	// last_value repeats the last row; seasonal_naive the row a season before.
	var diff float64
	if err := conn.QueryRow(ctx, `SELECT max(abs(f.prediction - w.construction)) FROM forecast('f', steps := 3, method := 'last_value') f,
		(SELECT construction FROM w ORDER BY year DESC, month DESC LIMIT 1) w WHERE f.entity = 'construction'`).Scan(&diff); err != nil || diff > 1e-6 {
		t.Errorf("last_value forecast differs from the last row by %v (%v)", diff, err)
	}
	if err := conn.QueryRow(ctx, `SELECT max(abs(f.prediction - w.construction)) FROM forecast('f', steps := 2, method := 'seasonal_naive') f
		JOIN w ON w.year = f.year - 1 AND w.month = f.month WHERE f.entity = 'construction'`).Scan(&diff); err != nil || diff > 1e-6 {
		t.Errorf("seasonal_naive forecast differs from the year before by %v (%v)", diff, err)
	}
	notices = nil
	exec(t, conn, "SELECT count(*) FROM forecast('f', method := 'auto')")
	if len(notices) != 1 || !strings.HasPrefix(notices[0], "forecast: method 'auto' chose each entity's method by its validation MSE over steps 1..1: ") {
		t.Errorf("auto notices %q", notices)
	}
	for _, tt := range []struct{ args, code, message string }{
		{"'f', method := 'prophet'", "22023", "method := 'prophet' is not a method"},
		{"'f', level := 1", "22023", "level := 1 is out of range"},
		{"'f', level := 0", "22023", "level := 0 is out of range"},
	} {
		e := errorCode(t, conn, "SELECT * FROM forecast("+tt.args+")")
		if e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
			t.Errorf("forecast(%s): %s %q, want %s containing %q", tt.args, e.Code, e.Message, tt.code, tt.message)
		}
	}
	if e := errorCode(t, conn, "SELECT * FROM forecast('f', method := 'prophet')"); !strings.Contains(e.Hint, "seasonal_naive, drift") {
		t.Errorf("unknown method hint %q", e.Hint)
	}
}
