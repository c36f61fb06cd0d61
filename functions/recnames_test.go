//go:build duckdb_arrow

package functions_test

import (
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"
)

// item_names := 'table.column' is checked against the catalog before
// training, and the version records it for readers such as the dashboard.
func TestRecommenderItemNames(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, smallRatings,
		"CREATE TABLE items AS SELECT 'i' || i AS itm, 'Item ' || i AS title FROM range(1, 6) r(i)",
		`CREATE TABLE "My Items" AS SELECT itm AS ITM, title AS "The Title" FROM items`,
		"CREATE TABLE unkeyed AS SELECT itm AS id, title FROM items")
	cols := ", user := 'usr', item := 'itm', rating := 'stars', epochs := 1, hidden := [4], test_fraction := 0.2"
	for _, tc := range []struct {
		model, itemNames string
		want             map[string]string
	}{
		{"plain", "items.title", map[string]string{"table": "public.items", "column": "title", "key": "itm"}},
		{"schema", "public.items.title", map[string]string{"table": "public.items", "column": "title", "key": "itm"}},
		{"spaced", " items . title ", map[string]string{"table": "public.items", "column": "title", "key": "itm"}},
		{"quoted", `"My Items"."The Title"`, map[string]string{"table": `public."My Items"`, "column": "The Title", "key": "ITM"}},
	} {
		t.Run(tc.model, func(t *testing.T) {
			scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('sr', model := '"+tc.model+"'"+cols+", item_names := '"+tc.itemNames+"')")
			raw := scanOne[string](t, conn, "SELECT CAST(hyperparameters AS VARCHAR) FROM mlops.models WHERE name = '"+tc.model+"'")
			var hp struct {
				ItemNames map[string]string `json:"item_names"`
			}
			if err := json.Unmarshal([]byte(raw), &hp); err != nil {
				t.Fatal(err)
			}
			if len(hp.ItemNames) != 3 || hp.ItemNames["table"] != tc.want["table"] || hp.ItemNames["column"] != tc.want["column"] || hp.ItemNames["key"] != tc.want["key"] {
				t.Errorf("item_names := %q recorded %v, want %v", tc.itemNames, hp.ItemNames, tc.want)
			}
		})
	}
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('sr', model := 'unnamed'"+cols+")")
	if unnamed := scanOne[string](t, conn, "SELECT CAST(hyperparameters AS VARCHAR) FROM mlops.models WHERE name = 'unnamed'"); containsKey(t, unnamed, "item_names") {
		t.Errorf("a version trained without item_names records them: %s", unnamed)
	}

	runs := scanOne[int](t, conn, "SELECT count(*) FROM mlops.training_runs")
	train := "SELECT * FROM train_recommender('sr', model := 'bad'" + cols + ", item_names := "
	expectErrors(t, conn, []failing{
		{train + "'items')", "22023", "item_names := 'items' is not table.column"},
		{train + "'.title')", "22023", "item_names := '.title' is not table.column"},
		{train + "'items.')", "22023", "item_names := 'items.' is not table.column"},
		{train + "'nope.title')", "42P01", "item_names := 'nope.title'"},
		{train + "'items.titel')", "42703", "item_names := 'items.titel': table items has no column titel"},
		{train + "'unkeyed.title')", "42703", "table unkeyed has no column itm, the item column of the ratings (item := 'itm')"},
		{train + "'items.itm')", "22023", "item_names := 'items.itm' names the item column itself"},
		{train + "'(SELECT 1 AS itm, 2 AS n).n')", "22023", "is not a table name"},
		{train + "'read_csv(''items.csv'').title')", "22023", "read_csv('items.csv') is not a table name"},
	})
	if n := scanOne[int](t, conn, "SELECT count(*) FROM mlops.training_runs"); n != runs {
		t.Errorf("failing item_names recorded %d training runs, want none", n-runs)
	}
}

// containsKey reports whether the JSON object text has key at its top level.
func containsKey(t *testing.T, text, key string) bool {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	_, ok := m[key]
	return ok
}
