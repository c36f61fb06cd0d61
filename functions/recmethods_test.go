//go:build duckdb_arrow

package functions_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// evalRow is a row of evaluate of a recommender; NULL metrics are NaN.
type evalRow struct {
	method  string
	metrics [5]float64 // test_rmse, recall_at_10, ndcg_at_10, recall_at_20, ndcg_at_100
}

func evaluation(t *testing.T, conn *pgx.Conn, query string) map[string]evalRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for _, f := range rows.FieldDescriptions() {
		names = append(names, f.Name)
	}
	if want := []string{"method", "test_rmse", "recall_at_10", "ndcg_at_10", "recall_at_20", "ndcg_at_100"}; !slices.Equal(names, want) {
		t.Fatalf("%s: columns %v, want %v", query, names, want)
	}
	out := map[string]evalRow{}
	var order []string
	for rows.Next() {
		var r evalRow
		var m [5]*float64
		if err := rows.Scan(&r.method, &m[0], &m[1], &m[2], &m[3], &m[4]); err != nil {
			t.Fatal(err)
		}
		for i, v := range m {
			r.metrics[i] = math.NaN()
			if v != nil {
				r.metrics[i] = *v
			}
		}
		out[r.method] = r
		order = append(order, r.method)
		t.Logf("%s: %-10s %.4f", query, r.method, r.metrics)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"autorec", "item_mean", "popularity", "ease"}; !slices.Equal(order, want) {
		t.Errorf("%s: methods %v, want %v", query, order, want)
	}
	return out
}

// TestRecommenderMethods serves the small text-id model by each method,
// for a known user, for a history, and item to item, and checks the bad
// inputs of each.
func TestRecommenderMethods(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeCacheStatement, &notices)
	exec(t, conn, smallRatings, "CREATE TABLE si AS SELECT DISTINCT itm, 'name of ' || itm AS name FROM sr",
		"CREATE TABLE gw AS SELECT i AS t, sin(i) AS a, cos(i) AS b FROM range(40) r(i)")
	scanOne[int](t, conn, "SELECT count(*) FROM train_gat('gw', model := 'g', time := ['t'], epochs := 1, hidden := [2])")
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('sr', model := 'txt', user := 'usr', item := 'itm', rating := 'stars', "+
		"hidden := [8], epochs := 3, test_fraction := 0.2, min_user_ratings := 2)")

	// u3 rated every item but i2, so every method leaves i2 alone.
	for _, method := range []string{"model", "ease", "popularity"} {
		q := "SELECT string_agg(item, ',') FROM recommend('txt', user_id := 'u3', method := '" + method + "')"
		if got := scanOne[string](t, conn, q); got != "i2" {
			t.Errorf("%s: %q, want i2", q, got)
		}
	}
	// Popularity ranks by ratings, most first; the history is left out.
	got := scanOne[string](t, conn, "SELECT string_agg(item, ',' ORDER BY rank) FROM recommend_for('txt', history := ['i1'], method := 'popularity', k := 2)")
	want := scanOne[string](t, conn, "SELECT string_agg(itm, ',' ORDER BY n DESC, itm) FROM (SELECT itm, count(*) AS n FROM sr WHERE itm <> 'i1' GROUP BY itm ORDER BY n DESC, itm LIMIT 2)")
	if got != want {
		t.Errorf("recommend_for by popularity: %q, want %q", got, want)
	}
	for _, method := range []string{"model", "ease"} {
		q := "SELECT string_agg(item, ',' ORDER BY rank) || '|' || string_agg(name, ',' ORDER BY rank) FROM recommend_for('txt', history := ['i1', 'i3', 'i1'], " +
			"k := 5, items := 'si', method := '" + method + "')"
		items, names, _ := strings.Cut(scanOne[string](t, conn, q), "|")
		if items == "" || strings.Contains(items, "i1") || strings.Contains(items, "i3") || !strings.HasPrefix(names, "name of i") {
			t.Errorf("%s: %q and %q, want other items than the history, named", q, items, names)
		}
	}
	if got := scanOne[string](t, conn, "SELECT string_agg(item || ':' || name, ',' ORDER BY rank) FROM similar_items('txt', 'i1', k := 4, items := 'si')"); strings.Count(got, "name of i") != 4 || strings.Contains(got, "i1:") {
		t.Errorf("similar_items of i1: %q, want the other four items, named", got)
	}

	rows := evaluation(t, conn, "SELECT * FROM evaluate('txt')")
	if e := rows["ease"]; !math.IsNaN(e.metrics[0]) || math.IsNaN(rows["popularity"].metrics[3]) {
		t.Errorf("evaluate: ease %v (an RMSE?), popularity %v (no Recall@20?)", e, rows["popularity"])
	}
	notices = nil
	rows = evaluation(t, conn, "SELECT * FROM evaluate('txt', protocol := 'users')")
	if !math.IsNaN(rows["autorec"].metrics[1]) || len(notices) != 1 || !strings.Contains(notices[0], "was trained on every user") {
		t.Errorf("protocol := 'users' measured the model (%v), trained on every user; notices %q", rows["autorec"], notices)
	}

	expectErrors(t, conn, []failing{
		{"SELECT * FROM recommend('txt', user_id := 'u3', method := 'svd')", "22023", "method := 'svd' is not accepted; use one of 'model', 'ease', 'popularity'"},
		{"SELECT * FROM recommend_for('txt', history := [])", "22023", "history := [] is empty"},
		{"SELECT * FROM recommend_for('txt', history := ['i1', 'zz', 'i9'])", "22023", "history has 2 ids that are not items txt@1 was trained on: 'zz', 'i9'"},
		{"SELECT * FROM recommend_for('txt', history := ['i1'], k := 0)", "22023", "k := 0 is out of range"},
		{"SELECT * FROM recommend_for('txt')", "42883", "argument history is required"},
		{"SELECT * FROM recommend_for('txt', history := ['i1'], method := 'knn')", "22023", "method := 'knn' is not accepted"},
		{"SELECT * FROM similar_items('txt', 'zz')", "22023", "item 'zz' is not an item txt@1 was trained on"},
		{"SELECT * FROM similar_items('txt', 'i1', k := 100001)", "22023", "k := 100001 is out of range"},
		{"SELECT * FROM evaluate('txt', protocol := 'items')", "22023", "protocol := 'items' is not accepted; use one of 'ratings', 'users'"},
		{"SELECT * FROM evaluate('g', protocol := 'users')", "22023", "protocol applies to recommenders, and g@1 is a GAT"},
	})
}

// TestEASETooManyItems: a version with more items than EASE fits is
// evaluated without it, with a notice, and refuses method := 'ease'.
func TestEASETooManyItems(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeCacheStatement, &notices)
	// Eight users rate all 4,500 items 5: about 4,480 items keep five
	// relevant training ratings or more after a 10 % test split.
	exec(t, conn, "CREATE TABLE wide AS SELECT u, i, 5.0 AS r FROM range(8) a(u), range(4500) b(i)")
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('wide', model := 'wide', user := 'u', item := 'i', rating := 'r', hidden := [4], epochs := 1)")
	notices = nil
	rows := evaluation(t, conn, "SELECT * FROM evaluate('wide')")
	if !math.IsNaN(rows["ease"].metrics[1]) || len(notices) != 1 || !strings.Contains(notices[0], "ease skipped") || !strings.Contains(notices[0], "at most 4000") {
		t.Errorf("evaluate of 4,500 items: ease %v, notices %q", rows["ease"], notices)
	}
	expectErrors(t, conn, []failing{
		{"SELECT * FROM recommend('wide', user_id := 1, method := 'ease')", "54000", "method := 'ease' fits at most 4000 items"},
	})
}

// serveMethodsMovieLens checks evaluate's methods and protocols, the
// methods of recommend, recommend_for and similar_items on model ml,
// trained on MovieLens small with the default options.
func serveMethodsMovieLens(t *testing.T, conn *pgx.Conn) {
	rows := evaluation(t, conn, "SELECT * FROM evaluate('ml')")
	ease, pop := rows["ease"].metrics, rows["popularity"].metrics
	for i := 1; i < 5; i++ {
		if !(ease[i] >= 1.5*pop[i]) {
			t.Errorf("evaluate: ease %v is not 1.5 times popularity %v", ease, pop)
			break
		}
	}
	rows = evaluation(t, conn, "SELECT * FROM evaluate('ml', protocol := 'users')")
	if ease, pop := rows["ease"].metrics, rows["popularity"].metrics; !(ease[3] > pop[3]) || !(ease[4] > pop[4]) {
		t.Errorf("protocol := 'users': ease %v does not rank above popularity %v", ease, pop)
	}

	seen := map[int64]bool{}
	for _, r := range recommendations(t, conn, "SELECT movieId, 0, 0.0 FROM ratings WHERE userId = 42") {
		seen[r.Rank] = true
	}
	for _, method := range []string{"ease", "popularity"} {
		recs := recommendations(t, conn, "SELECT rank, item, score FROM recommend('ml', user_id := 42, k := 20, method := '"+method+"')")
		if len(recs) != 20 {
			t.Fatalf("method := '%s': %d recommendations, want 20", method, len(recs))
		}
		for _, r := range recs {
			if seen[r.Item] {
				t.Errorf("method := '%s' recommends item %d, which user 42 rated", method, r.Item)
			}
		}
	}
	// The original trilogy in, by EASE and the model: neither gives it back.
	for _, method := range []string{"ease", "model"} {
		recs := recommendations(t, conn, "SELECT rank, item, score FROM recommend_for('ml', history := [260, 1196, 1210], method := '"+method+"')")
		if len(recs) != 10 || slices.ContainsFunc(recs, func(r recommendation) bool { return r.Item == 260 || r.Item == 1196 || r.Item == 1210 }) {
			t.Errorf("recommend_for the trilogy by %s: %v", method, recs)
		}
	}
	// Star Wars: Episode V - The Empire Strikes Back (1196) has other
	// Star Wars films among its ten nearest by the decoder's embeddings.
	titles := scanOne[string](t, conn, "SELECT string_agg(title, ' | ' ORDER BY rank) FROM similar_items('ml', 1196, items := 'movies')")
	t.Logf("similar to The Empire Strikes Back: %s", titles)
	if !strings.Contains(titles, "Star Wars: Episode") {
		t.Errorf("no Star Wars film is among The Empire Strikes Back's ten nearest: %s", titles)
	}
	t.Logf("similar to A New Hope: %s", scanOne[string](t, conn, "SELECT string_agg(title, ' | ' ORDER BY rank) FROM similar_items('ml', 260, items := 'movies')"))
}

// TestHoldOutUsers checks that hold_out_users keeps a share of the users
// out of training, so that protocol := 'users' measures the model on users
// it never saw, and that it refuses a share out of range.
func TestHoldOutUsers(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, `CREATE TABLE hr AS SELECT u, i, CAST(1 + (u * 7 + i * 3) % 5 AS DOUBLE) AS r
		FROM range(40) a(u), range(20) b(i) WHERE (u + i) % 3 <> 0`,
		`SELECT count(*) FROM train_recommender('hr', model := 'ho', user := 'u', item := 'i', rating := 'r',
		objective := 'ranking', epochs := 2, hidden := [8], hold_out_users := 0.25)`)
	rows := evaluation(t, conn, "SELECT * FROM evaluate('ho', protocol := 'users')")
	if m := rows["autorec"].metrics; math.IsNaN(m[1]) || math.IsNaN(m[3]) || math.IsNaN(m[4]) || !math.IsNaN(m[0]) {
		t.Errorf("protocol := 'users' of a model trained with hold_out_users: %v, want its ranking metrics and no RMSE", m)
	}
	expectErrors(t, conn, []failing{
		{"SELECT * FROM train_recommender('hr', model := 'ho2', user := 'u', item := 'i', rating := 'r', hold_out_users := 0.95)",
			"22023", "hold_out_users := 0.95 is out of range"},
	})
}
