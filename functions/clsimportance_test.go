//go:build duckdb_arrow

package functions_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// signalSQL makes table signal: a label that depends on x alone (its
// sign), and z, noise with no link to it; y = 3x + 1 for a regressor.
var signalSQL = `CREATE TABLE signal AS SELECT sin(i * 1.7) AS x, cos(i * 2.3 + 0.4) AS z,
	CASE WHEN sin(i * 1.7) > 0 THEN 'hi' ELSE 'lo' END AS label, 3 * sin(i * 1.7) + 1 AS y FROM range(600) r(i)`

// importanceRow is a row of feature_importance.
type importanceRow struct {
	Feature    string
	Importance float64
	Std        float64
	Metric     string
}

func featureImportance(t *testing.T, conn *pgx.Conn, query string) map[string]importanceRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[importanceRow])
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	out := map[string]importanceRow{}
	for i, r := range list {
		t.Logf("%s: %+v", query, r)
		out[r.Feature] = r
		if i > 0 && r.Importance > list[i-1].Importance {
			t.Errorf("%s: rows not sorted by importance: %+v", query, list)
		}
	}
	return out
}

// TestFeatureImportance: on a table whose label depends only on x, x's
// permutation importance on the validation rows is the accuracy lost
// (about half of it), and the noise column z's is near 0; a regressor's
// is the RMSE gained. The figures repeat with the seed.
func TestFeatureImportance(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, signalSQL,
		"SELECT * FROM train_classifier('SELECT x, z, label FROM signal', label := 'label', model := 'sig', epochs := 60, lr := 0.01)",
		"SELECT * FROM train_regressor('SELECT x, z, y FROM signal', target := 'y', model := 'sigr', architecture := 'linear', epochs := 100, lr := 0.05)")
	imp := featureImportance(t, conn, "SELECT * FROM feature_importance('sig')")
	x, z := imp["x"], imp["z"]
	if len(imp) != 2 || x.Metric != "accuracy" || x.Importance < 0.3 || math.Abs(z.Importance) > 0.03 || x.Std < 0 {
		t.Errorf("classifier: x %+v, z %+v; want accuracy, x above 0.3 and z within 0.03 of 0", x, z)
	}
	again := featureImportance(t, conn, "SELECT * FROM feature_importance('sig@1', repeats := 5, seed := 1)")
	if again["x"] != x || again["z"] != z {
		t.Errorf("the same seed gave %+v, then %+v", imp, again)
	}
	if one := featureImportance(t, conn, "SELECT * FROM feature_importance('sig', repeats := 1, seed := 9)"); one["x"].Std != 0 {
		t.Errorf("one repeat has std %g, want 0", one["x"].Std)
	}
	reg := featureImportance(t, conn, "SELECT * FROM feature_importance('sigr')")
	if rx, rz := reg["x"], reg["z"]; rx.Metric != "rmse" || rx.Importance < 1 || math.Abs(rz.Importance) > 0.05 {
		t.Errorf("regressor: x %+v, z %+v; want rmse, x above 1 and z within 0.05 of 0", rx, rz)
	}
}

// TestFeatureImportanceBadInput: the catalog shows feature_importance and
// load_mnist as declared (what psql's \df reads); every refusal's
// SQLSTATE and what its message names.
func TestFeatureImportanceBadInput(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, signalSQL,
		"CREATE TABLE small AS SELECT u AS user_id, i AS item_id, ((u * 7 + i * 3) % 5 + 1)::DOUBLE AS rating "+
			"FROM range(1, 41) r(u), range(1, 31) s(i) WHERE (u + i) % 3 <> 0",
		"CREATE TABLE moving AS SELECT * FROM signal",
		"SELECT count(*) FROM train_recommender('small', model := 'rec', epochs := 2, hidden := [8])",
		"SELECT * FROM train_classifier('signal', label := 'label', model := 'noval', features := ['x', 'z'], validation_fraction := 0, epochs := 2)",
		"SELECT * FROM train_classifier('moving', label := 'label', model := 'moved', features := ['x', 'z'], epochs := 2)",
		"INSERT INTO moving VALUES (0.5, 0.5, 'hi', 2.5)")
	for fn, want := range map[string]string{
		"feature_importance": "model text, version bigint DEFAULT NULL::bigint, repeats bigint DEFAULT 5, seed bigint DEFAULT 1 -> TABLE(feature text, importance double precision, std double precision, metric text)",
		"load_mnist":         "table_name text, path text -> TABLE(split text, rows bigint)",
	} {
		if got := scanOne[string](t, conn, "SELECT pg_get_function_arguments(oid) || ' -> ' || pg_get_function_result(oid) FROM pg_proc WHERE proname = '"+fn+"'"); got != want {
			t.Errorf("%s shows itself as %q, want %q", fn, got, want)
		}
	}
	for _, tt := range []struct {
		name, query, code string
		want              []string
	}{
		{"no model", "SELECT * FROM feature_importance('nope')", "42704", []string{"model 'nope' does not exist"}},
		{"no version", "SELECT * FROM feature_importance('noval', version := 7)", "42704", []string{"has no version 7"}},
		{"recommender", "SELECT * FROM feature_importance('rec')", "42809", []string{"model 'rec' is a recommender", "classifiers and regressors"}},
		{"repeats zero", "SELECT * FROM feature_importance('noval', repeats := 0)", "22023", []string{"repeats := 0 is out of range", "1", "1000"}},
		{"repeats large", "SELECT * FROM feature_importance('noval', repeats := 1001)", "22023", []string{"repeats := 1001 is out of range"}},
		{"no validation rows", "SELECT * FROM feature_importance('noval')", "55000", []string{"noval@1 was trained without validation rows", "validation_fraction"}},
		{"data changed", "SELECT * FROM feature_importance('moved')", "55000", []string{"source 'moving' is not the data moved@1 was trained on"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := errorCode(t, conn, tt.query)
			if e.Code != tt.code {
				t.Errorf("SQLSTATE %s (%s), want %s", e.Code, e.Message, tt.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(e.Message+" "+e.Hint, w) {
					t.Errorf("message %q (hint %q) does not say %q", e.Message, e.Hint, w)
				}
			}
		})
	}
}
