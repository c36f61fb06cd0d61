//go:build duckdb_arrow

package functions_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestTrainGATLong trains on the long unemployment table (entity, time
// and value columns) and checks that it forecasts, in original units (and
// under the entities' own names, which the pivot turns into column names), as
// the same training on the pivoted table rescaled per entity (rescale with
// stats := 'per_column') with that scaler linked: each prediction and
// bound to 1e-9 relative, the same rows. The scaler is kept with the
// model, and wrong arguments are refused.
func TestTrainGATLong(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	loadUnemployment(t, conn)
	exec(t, conn, "CREATE TABLE w AS SELECT * FROM "+pivotU+")",
		"CREATE TABLE pw AS SELECT * FROM rescale('w', stats := 'per_column', save_as := 'pu')",
		"SELECT count(*) FROM train_gat('pw', model := 'p', scaler := 'pu', epochs := 2, seed := 1)",
		"SELECT count(*) FROM train_gat('u', entity := 'series', time := ['year', 'month'], value := 'count', model := 'l', epochs := 2, seed := 1)")
	var scaler string
	if err := conn.QueryRow(ctx, "SELECT scaler FROM mlops.models WHERE name = 'l'").Scan(&scaler); err != nil || !strings.HasPrefix(scaler, "l@") {
		t.Errorf("scaler of l %q (%v), want l@<fingerprint>", scaler, err)
	}
	q := `SELECT p.step, p.year, p.month, p.entity, p.prediction, l.prediction, p.lo, l.lo, p.hi, l.hi
		FROM forecast('p', steps := 3) p FULL JOIN forecast('l', steps := 3) l
		ON p.step = l.step AND p.entity = lower(replace(replace(replace(l.entity, ' ', '_'), ',', ''), '-', '_')) ORDER BY 1, 4`
	rows, err := conn.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var step, year, month int64
		var entity string
		var v [6]*float64
		if err := rows.Scan(&step, &year, &month, &entity, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]); err != nil {
			t.Fatal(err)
		}
		n++
		for k := 0; k < 6; k += 2 {
			if v[k] == nil || v[k+1] == nil || math.Abs(*v[k]-*v[k+1]) > 1e-9*math.Abs(*v[k]) {
				t.Errorf("step %d %s column %d: wide %v, long %v", step, entity, k/2, deref(v[k]), deref(v[k+1]))
			}
		}
	}
	if err := rows.Err(); err != nil || n != 3*14 {
		t.Errorf("%d rows (%v), want 42", n, err)
	}
	for _, tt := range []struct{ query, code, says string }{
		{"SELECT * FROM train_gat('u', entity := 'series', model := 'x')", "42883", "argument value is required"},
		{"SELECT * FROM train_gat('u', entity := 'nope', value := 'count', model := 'x')", "42703", "entity := 'nope' names no column"},
		{"SELECT * FROM train_gat('u', entity := 'series', value := 'count', scaler := 'pu', model := 'x')", "22023", "keeps its own scaler"},
		{"SELECT * FROM train_gat('w', value := 'count', model := 'x')", "22023", "applies to a long source"},
		{"SELECT * FROM train_gat('SELECT * FROM u WHERE NOT (series = ''Finance'' AND year = 2005)', entity := 'series', value := 'count', model := 'x')",
			"22023", "entity 'Finance' has no row"},
	} {
		e := errorCode(t, conn, tt.query)
		if e.Code != tt.code || !strings.Contains(e.Message, tt.says) {
			t.Errorf("%s: %s %q, want %s saying %q", tt.query, e.Code, e.Message, tt.code, tt.says)
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestLongScalerOfFailedRun: the scaler a long source's run saves when
// training begins goes again when the run fails, unless a version that
// keeps weights links it (here an earlier version on the same data).
func TestLongScalerOfFailedRun(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	loadUnemployment(t, conn)
	const long = "'u', entity := 'series', time := ['year', 'month'], value := 'count'"
	const diverge = ", epochs := 50, lr := 10, momentum := 0.99, target := 'level', clip := 0, validation_fraction := 0, patience := 0"
	e := errorCode(t, conn, "SELECT * FROM train_gat("+long+", model := 'lf'"+diverge+")")
	if e.Code != "22000" {
		t.Fatalf("divergent run: %s %q", e.Code, e.Message)
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM mlops.scalers WHERE name LIKE 'lf@%'"); n != 0 {
		t.Errorf("%d scalers of the failed run lf left", n)
	}
	exec(t, conn, "SELECT count(*) FROM train_gat("+long+", model := 'lk', epochs := 2, seed := 1)")
	if e := errorCode(t, conn, "SELECT * FROM train_gat("+long+", model := 'lk'"+diverge+")"); e.Code != "22000" {
		t.Fatalf("divergent second run: %s %q", e.Code, e.Message)
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM mlops.scalers s JOIN mlops.models m ON m.scaler = s.name WHERE m.name = 'lk' AND m.version = 1"); n != 1 {
		t.Errorf("the scaler of lk@1 is gone after a failed run on the same data (%d)", n)
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM forecast('lk', steps := 1)"); n != 14 {
		t.Errorf("lk@1 forecasts %d rows after the failed run, want 14", n)
	}
}

// TestTrainGATLongManyEntities trains on a long table of 300 entities,
// whose names the entity query returns over several batches: the names
// the version keeps (its scaler's columns, the forecast's entities) are
// the source's, not bytes of a batch read since (which once crashed the
// server binding the scaler).
func TestTrainGATLongManyEntities(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, `CREATE TABLE sales AS SELECT w AS week, 'sku' || lpad(CAST(e AS VARCHAR), 4, '0') AS sku,
		100 + e + 10 * sin(w / 3.0 + e) + (hash(e * 1000 + w) % 100) / 50.0 AS units FROM range(40) a(w), range(300) b(e)`,
		"SELECT count(*) FROM train_gat('sales', entity := 'sku', time := 'week', value := 'units', model := 'many', epochs := 1, hidden := [4], neighbors := 5, ladder := 'without_arima', season := 1, seed := 1)")
	var same bool
	if err := conn.QueryRow(ctx, `SELECT s.columns = (SELECT list(DISTINCT sku ORDER BY sku) FROM sales)
		FROM mlops.scalers s JOIN mlops.models m ON s.name = m.scaler WHERE m.name = 'many'`).Scan(&same); err != nil || !same {
		t.Errorf("the scaler's columns are not the source's entities (%v)", err)
	}
	var missing int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM (SELECT DISTINCT sku FROM sales
		EXCEPT SELECT entity FROM forecast('many', steps := 1))`).Scan(&missing); err != nil || missing != 0 {
		t.Errorf("%d entities of the source have no forecast (%v)", missing, err)
	}
}
