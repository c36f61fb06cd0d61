//go:build duckdb_arrow

package functions_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// scaledUnemployment pivots and rescales the unemployment data into uw,
// saving the scaler as "u".
func scaledUnemployment(t testing.TB, conn *pgx.Conn) {
	loadUnemployment(t, conn)
	exec(t, conn, "CREATE TABLE w AS SELECT * FROM "+pivotU+")",
		"CREATE TABLE uw AS SELECT * FROM rescale('w', save_as := 'u')")
}

// TestTrainGAT trains through the server: one row and one NOTICE per epoch,
// rows that reach the client before training ends, a stored model with
// versions, and evaluate and forecast on it.
func TestTrainGAT(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	var notices []string
	conn := connectWithNotices(t, addr, pgx.QueryExecModeCacheStatement, &notices)
	other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)

	rows, err := conn.Query(ctx, "SELECT epoch, train_mse, test_mse FROM train_gat('uw', model := 'g', epochs := 30, scaler := 'u', seed := 3, compare_graph := true)")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
		if n == 1 { // the version is ready only when training ends
			var status string
			if err := other.QueryRow(ctx, "SELECT status FROM mlops.models WHERE name = 'g'").Scan(&status); err != nil || status != "training" {
				t.Errorf("at the first row, the model is %q (%v): the rows did not stream", status, err)
			}
		}
		var epoch int64
		var train, test float64
		if err := rows.Scan(&epoch, &train, &test); err != nil || epoch != int64(n) || !(train > 0) || !(test > 0) {
			t.Fatalf("row %d: epoch %d train %v test %v (%v)", n, epoch, train, test, err)
		}
	}
	if err := rows.Err(); err != nil || n != 30 {
		t.Fatalf("%d rows (%v), want 30", n, err)
	}
	// The season NOTICE (from the calendar: year and month columns), 30 epochs, the anchor (on these data the mean of
	// ets and arima wins the rolling-origin validation; the per-entity choice is not one of auto's candidates), the kept epoch, the
	// comparison with the network without the graph, the time outside the epochs by phase, the deployment, the time of
	// storing.
	if len(notices) != 37 || !strings.Contains(notices[0], "season 12 from the calendar (the time columns are (year, month))") || !strings.Contains(notices[30], "epoch 30") ||
		!strings.Contains(notices[30], " val_mse ") ||
		!strings.Contains(notices[31], "anchored to combination of ets, arima, the lowest validation MSE of last_value+highway (ar_diff of 12 lags) ") ||
		!strings.Contains(notices[31], ", combination 0.") || strings.Contains(notices[31], "per_entity") ||
		!strings.Contains(notices[32], "keeps the weights of epoch") ||
		!strings.Contains(notices[33], "validation MSE with the graph ") || notices[35] != "train_gat: g@1 is deployed" ||
		!regexp.MustCompile(`^train_gat g@1: outside the epochs: read \d+\.\d\ds, prepare [\d.]+s, setup [\d.]+s, checkpoints [\d.]+s, `+
			`evaluate\+report\+artifact [\d.]+s \(together; alone [\d.]+s, [\d.]+s, [\d.]+s\); storing follows$`).MatchString(notices[34]) ||
		!strings.HasPrefix(notices[36], "train_gat g@1: outside the epochs: storing ") {
		t.Errorf("notices %d, last %q, anchor %q, graph %q", len(notices), notices[len(notices)-1], notices[31], notices[33])
	}
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 2)")
	var versions int
	if err := conn.QueryRow(ctx, "SELECT max(version) FROM mlops.models WHERE name = 'g'").Scan(&versions); err != nil || versions != 2 {
		t.Errorf("versions %d (%v), want 2", versions, err)
	}
	var methods []string
	erows, _ := conn.Query(ctx, "SELECT method, test_mse, test_mse_original FROM evaluate('g', version := 1)")
	for erows.Next() {
		var m string
		var mse, orig float64
		if err := erows.Scan(&m, &mse, &orig); err != nil || !(mse > 0) || !(orig > mse) {
			t.Errorf("evaluate row %s: %v %v (%v)", m, mse, orig, err)
		}
		methods = append(methods, m)
	}
	// With this seed the network without the graph validates better, so it is the version's network (gat) and the
	// graph's network is listed as gat_graph.
	if strings.Join(methods, ",") != "gat,gat_no_graph,gat_graph,last_value,seasonal_naive,drift,constant,ols,ar_diff,ets,theta,arima,auto" {
		t.Errorf("evaluate methods %v", methods)
	}
	var count int
	var min float64
	if err := conn.QueryRow(ctx, "SELECT count(*), min(prediction) FROM forecast('g', steps := 3, version := 1)").Scan(&count, &min); err != nil || count != 42 || !(min > 1) {
		t.Errorf("forecast: %d rows, min %v in original units (%v)", count, min, err)
	}
}

// TestTrainGATErrors checks bad input fails before training and stores nothing.
func TestTrainGATErrors(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "CREATE TABLE withnull AS SELECT * FROM uw", "UPDATE withnull SET agriculture = NULL WHERE year = 2005 AND month = 1",
		"CREATE TABLE labels AS SELECT year, month, agriculture, 'x' AS label FROM uw")
	tamper(t, db, `INSERT INTO mlops.models (name, version, kind, status, run_id, hyperparameters, source, fingerprint, rows, entities, mallard_version)
			VALUES ('rec', 1, 'autoencoder', 'ready', 0, '{}', 'ratings', '', 0, 0, 'test')`)
	tests := []struct{ name, args, code, message string }{
		{"too few rows", "'SELECT * FROM uw LIMIT 5', model := 'e'", "22023", "window := 4 and highway := 4 need at least 7"},
		{"bad target", "'uw', model := 'e', target := 'delta'", "22023", "target := 'delta'"},
		{"season too long", "'uw', model := 'e', season := 40", "22023", "season := 40: the 85 training rows allow seasons 1 to 28"},
		{"validation too large", "'uw', model := 'e', validation_fraction := 0.95", "22023", "validation_fraction := 0.95 is out of range"},
		{"negative clip", "'uw', model := 'e', clip := -1", "22023", "clip := -1 is out of range"},
		{"tiny train_fraction", "'uw', model := 'e', train_fraction := 0.01", "22023", "train_fraction := 0.01 of 122 rows"},
		{"unknown anchor", "'uw', model := 'e', anchor := 'prophet'", "22023", "anchor := 'prophet'"},
		{"anchor without change", "'uw', model := 'e', target := 'level', anchor := 'ets'", "22023", "anchor := 'ets' applies to target := 'change'"},
		{"fixed combination misspelt", "'uw', model := 'e', anchor := 'ets_arima_thetas'", "22023",
			"anchor := 'ets_arima_thetas' is not accepted; use one of 'auto', 'last_value', 'seasonal_naive', 'drift', 'ols', 'ets', 'theta', 'arima', 'combination', 'per_entity', 'ets_arima_theta', 'ets_arima_theta_median'"},
		{"fixed combination without change", "'uw', model := 'e', target := 'level', anchor := 'ets_arima_theta'", "22023",
			"anchor := 'ets_arima_theta' applies to target := 'change'"},
		{"infinite clip", "'uw', model := 'e', clip := 1e308 * 10", "22023", "clip := +Inf is out of range"},
		{"NaN lr", "'uw', model := 'e', lr := 'NaN'::double", "22023", "lr := NaN is out of range"},
		{"one entity", "'SELECT year, month, agriculture FROM uw', model := 'e'", "22023", "at least 2"},
		{"text entity", "'labels', model := 'e'", "42804", "column label has type text"},
		{"null cell", "'withnull', model := 'e'", "22004", "column agriculture has a NULL"},
		{"model missing", "'uw'", "42883", "model is required"},
		{"bad optimizer", "'uw', model := 'e', optimizer := 'rmsprop'", "22023", "optimizer := 'rmsprop'"},
		{"bad hidden", "'uw', model := 'e', hidden := [16, 0]", "22023", "hidden := [16, 0]: element 2 is 0"},
		{"unknown scaler", "'uw', model := 'e', scaler := 'nope'", "42704", "scaler 'nope' does not exist"},
		{"workers zero", "'uw', model := 'e', workers := 0", "22023", "workers := 0 is out of range"},
		{"auto anchor without validation", "'uw', model := 'e', validation_fraction := 0", "22023",
			"anchor 'auto' is chosen on validation: validation_fraction must be above 0"},
		{"other kind", "'uw', model := 'rec'", "42710", "model 'rec' is of kind autoencoder, not gat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := errorCode(t, conn, "SELECT * FROM train_gat("+tt.args+")")
			if e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %s %q, want %s containing %q", e.Code, e.Message, tt.code, tt.message)
			}
		})
	}
	var stored int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM mlops.models WHERE kind = 'gat'").Scan(&stored); err != nil || stored != 0 {
		t.Errorf("%d models stored by failed calls (%v)", stored, err)
	}
}

// TestDivergedOnUnscaledInput checks that a run that diverges on input of
// large magnitudes says the input looks unscaled and names rescale.
func TestDivergedOnUnscaledInput(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	e := errorCode(t, conn, "SELECT * FROM train_gat('w', model := 'raw', epochs := 20, lr := 1, target := 'level', clip := 0)")
	if e.Code != "22000" || !strings.Contains(e.Message, "training diverged") || !strings.Contains(e.Detail, "looks unscaled") ||
		!strings.Contains(e.Hint, "rescale(source, save_as := 'name')") {
		t.Errorf("got %s %q detail %q hint %q", e.Code, e.Message, e.Detail, e.Hint)
	}
}

// TestForecastTimes extrapolates the time columns of forecasts: calendar
// months from year and month columns, months from a date column, steps of
// an integer column.
func TestForecastTimes(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "CREATE TABLE ud AS SELECT make_date(year, month, 1) AS d, * EXCLUDE (year, month) FROM uw",
		"CREATE TABLE ui AS SELECT (year * 100 + month) * 0 + row_number() OVER (ORDER BY year, month) * 3 AS period, * EXCLUDE (year, month) FROM uw")
	for _, tt := range []struct{ source, model, columns, want string }{
		{"uw", "ym", "year || '-' || month", "2010-3 2010-4 2010-5 2010-6 2010-7 2010-8 2010-9 2010-10 2010-11 2010-12 2011-1"},
		{"ud", "dm", "strftime(d, '%Y-%m-%d')", "2010-03-01 2010-04-01 2010-05-01 2010-06-01 2010-07-01 2010-08-01 2010-09-01 2010-10-01 2010-11-01 2010-12-01 2011-01-01"},
		{"ui", "ip", "period::VARCHAR", "369 372 375 378 381 384 387 390 393 396 399"},
	} {
		exec(t, conn, "SELECT count(*) FROM train_gat('"+tt.source+"', model := '"+tt.model+"', epochs := 1, hidden := [4, 4])")
		got := scanOne[string](t, conn, "SELECT string_agg("+tt.columns+", ' ' ORDER BY step) FROM forecast('"+tt.model+"', steps := 11) WHERE entity = 'finance'")
		if got != tt.want {
			t.Errorf("%s: forecast times %q, want %q", tt.source, got, tt.want)
		}
	}
}
