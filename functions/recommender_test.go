//go:build duckdb_arrow

package functions_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
)

// movielensDir holds MovieLens small, which make writes there from Debian's
// r-cran-dslabs (scripts/movielens.R): GroupLens' terms keep it out of the
// repository.
var movielensDir = filepath.Join("..", "examples", "data", "movielens-small")

// loadMovieLens creates tables ratings and movies and fills them through
// COPY FROM STDIN.
func loadMovieLens(t testing.TB, conn *pgx.Conn) {
	t.Helper()
	exec(t, conn, "CREATE TABLE ratings (userId INTEGER, movieId INTEGER, rating DOUBLE, timestamp BIGINT)",
		"CREATE TABLE movies (movieId INTEGER, title VARCHAR, year INTEGER, genres VARCHAR)")
	for table, want := range map[string]int64{"ratings": 100_004, "movies": 9_066} {
		f, err := os.Open(filepath.Join(movielensDir, table+".csv"))
		if err != nil {
			t.Fatalf("%v: MovieLens small is written by make movielens (R with Debian's r-cran-dslabs), not committed", err)
		}
		tag, err := conn.PgConn().CopyFrom(context.Background(), f, "COPY "+table+" FROM STDIN (FORMAT csv, HEADER true, NULL 'NA')")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if tag.RowsAffected() != want {
			t.Fatalf("COPY %s loaded %d rows, want %d", table, tag.RowsAffected(), want)
		}
	}
}

// recommendation is a row of recommend.
type recommendation struct {
	Rank  int64
	Item  int64
	Score float64
}

func recommendations(t *testing.T, conn *pgx.Conn, query string) []recommendation {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[recommendation])
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// TestRecommenderMovieLens is the accuracy goal through SQL, on a seeded
// random 90/10 split of MovieLens small with the default options: held-out
// RMSE at most 0.90 and better than the item-mean baseline on RMSE,
// Recall@10 and NDCG@10. Then it serves the model.
func TestRecommenderMovieLens(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 30 epochs on MovieLens small")
	}
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeCacheStatement, &notices)
	loadMovieLens(t, conn)

	rows, err := conn.Query(ctx, "SELECT epoch, test_rmse FROM train_recommender('ratings', model := 'ml', user := 'userId', item := 'movieId', workers := 2)")
	if err != nil {
		t.Fatal(err)
	}
	var epochs []int64
	for rows.Next() {
		var epoch int64
		var rmse float64
		if err := rows.Scan(&epoch, &rmse); err != nil {
			t.Fatal(err)
		}
		epochs = append(epochs, epoch)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(epochs) != 30 || epochs[29] != 30 {
		t.Fatalf("epochs %v, want 1..30", epochs)
	}
	// Each epoch's NOTICE tells where the two workers' time went.
	times := regexp.MustCompile(`; workers' gradient\+reduce\+step\+barrier\+evaluate: (\d+\.\d\+){4}\d+\.\ds, (\d+\.\d\+){4}\d+\.\ds$`)
	matched := 0
	for _, n := range notices {
		if times.MatchString(n) {
			matched++
		}
	}
	if matched != 30 {
		t.Errorf("%d of %d notices tell the workers' times, want 30 (one an epoch): %q", matched, len(notices), notices)
	}

	metrics := map[string][3]float64{}
	rows, _ = conn.Query(ctx, "SELECT method, test_rmse, recall_at_10, ndcg_at_10 FROM evaluate('ml') WHERE method <> 'ease'")
	for rows.Next() {
		var method string
		var m [3]float64
		if err := rows.Scan(&method, &m[0], &m[1], &m[2]); err != nil {
			t.Fatal(err)
		}
		metrics[method] = m
		t.Logf("%-10s test_rmse %.4f recall_at_10 %.4f ndcg_at_10 %.4f", method, m[0], m[1], m[2])
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	model, means := metrics["autorec"], metrics["item_mean"]
	if _, ok := metrics["popularity"]; !ok || model[0] > 0.90 {
		t.Errorf("metrics %v: want the model's test RMSE at most 0.90, and a popularity baseline", metrics)
	}
	if model[0] >= means[0] || model[1] <= means[1] || model[2] <= means[2] {
		t.Errorf("the model %v is not better than the item means %v on every metric", model, means)
	}

	var kind, status string
	var deployed bool
	var ratings, users int64
	if err := conn.QueryRow(ctx, "SELECT kind, status, deployed, rows, entities FROM mlops.models WHERE name = 'ml'").
		Scan(&kind, &status, &deployed, &ratings, &users); err != nil {
		t.Fatal(err)
	}
	if kind != "recommender" || status != "ready" || !deployed || ratings != 100_004 || users != 671 {
		t.Errorf("mlops.models: %s %s deployed %v, %d ratings of %d users", kind, status, deployed, ratings, users)
	}

	// The artifact (about 22 MB) is stored in parts, which serving joins.
	if n := scanOne[int](t, conn, "SELECT count(*) FROM mlops.artifacts WHERE name = 'ml'"); n < 2 {
		t.Errorf("the artifact is stored in %d parts, want several", n)
	}
	serveMovieLens(t, conn)
	serveMethodsMovieLens(t, conn)
}

// serveMovieLens checks recommend and recommendations on model ml.
func serveMovieLens(t *testing.T, conn *pgx.Conn) {
	ctx := context.Background()
	recs := recommendations(t, conn, "SELECT rank, item, score FROM recommend('ml', user_id := 42, k := 20)")
	if len(recs) != 20 {
		t.Fatalf("%d recommendations, want 20", len(recs))
	}
	seen := map[int64]bool{}
	rows, _ := conn.Query(ctx, "SELECT movieId FROM ratings WHERE userId = 42")
	for rows.Next() {
		var m int64
		_ = rows.Scan(&m)
		seen[m] = true
	}
	for i, r := range recs {
		if r.Rank != int64(i+1) || i > 0 && r.Score > recs[i-1].Score || r.Score < 0.5 || r.Score > 5 {
			t.Errorf("recommendation %d: %+v after %+v", i, r, recs[max(i-1, 0)])
		}
		if seen[r.Item] {
			t.Errorf("item %d is one user 42 rated; exclude_seen is on by default", r.Item)
		}
	}
	all := recommendations(t, conn, "SELECT rank, item, score FROM recommend('ml', user_id := 42, k := 9066, exclude_seen := false)")
	if n := len(all); n != scanOne[int](t, conn, "SELECT count(DISTINCT movieId) FROM ratings") {
		t.Errorf("exclude_seen := false ranks %d items, want every rated movie", n)
	}
	seenRanked := 0
	for _, r := range all {
		if seen[r.Item] {
			seenRanked++
		}
	}
	if seenRanked != len(seen) {
		t.Errorf("exclude_seen := false ranks %d of the user's %d movies", seenRanked, len(seen))
	}

	// The items table adds its columns, matched on the item column.
	var mismatched int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM recommend('ml', user_id := 42, k := 20, items := 'movies') r
		JOIN movies m ON m.movieId = r.item WHERE m.title IS DISTINCT FROM r.title OR m.year IS DISTINCT FROM r.year`).Scan(&mismatched); err != nil {
		t.Fatal(err)
	}
	if mismatched != 0 {
		t.Errorf("%d recommended movies have another title or year than the movies table", mismatched)
	}

	// An unknown user: an error, or with fallback the most rated movies.
	expectErrors(t, conn, []failing{
		{"SELECT * FROM recommend('ml', user_id := 99999)", "22023", "user_id := 99999 is not a user ml@1 was trained on"},
	})
	popular := recommendations(t, conn, "SELECT rank, item, score FROM recommend('ml', user_id := 99999, k := 5, fallback := 'popular')")
	rows, _ = conn.Query(ctx, "SELECT movieId FROM ratings GROUP BY movieId ORDER BY count(*) DESC, min(rowid) LIMIT 5")
	var want []int64
	for rows.Next() {
		var m int64
		_ = rows.Scan(&m)
		want = append(want, m)
	}
	if got := items(popular); !slices.Equal(got[:1], want[:1]) || len(got) != 5 {
		t.Errorf("fallback items %v, want the most rated first %v", got, want)
	}

	// The scalar agrees with the table function, per row over users.
	rows, err := conn.Query(ctx, `SELECT userId, r.item, r.score FROM (SELECT DISTINCT userId FROM ratings WHERE userId IN (1, 42, 671)),
		unnest(recommendations('ml', userId, 3)) AS t(r) ORDER BY userId, r.score DESC`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64][]recommendation{}
	for rows.Next() {
		var u int64
		var r recommendation
		if err := rows.Scan(&u, &r.Item, &r.Score); err != nil {
			t.Fatal(err)
		}
		got[u] = append(got[u], r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, u := range []int64{1, 42, 671} {
		want := recommendations(t, conn, "SELECT rank, item, score FROM recommend('ml', user_id := "+itoa(u)+", k := 3)")
		if !slices.Equal(items(got[u]), items(want)) || math.Abs(got[u][0].Score-want[0].Score) > 1e-12 {
			t.Errorf("user %d: recommendations %v, recommend %v", u, got[u], want)
		}
	}
}

func items(recs []recommendation) []int64 {
	out := make([]int64, len(recs))
	for i, r := range recs {
		out[i] = r.Item
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// smallRatings is a table of text ids: six users who each rated four of
// five items (user u leaves out the item i with u + i divisible by 5),
// and one user (u7) with a single rating.
const smallRatings = `CREATE TABLE sr AS SELECT 'u' || u AS usr, 'i' || i AS itm, CAST(1 + (u * 7 + i * 3) % 5 AS DOUBLE) AS stars
	FROM range(1, 7) a(u), range(1, 6) b(i) WHERE (u + i) % 5 <> 0 UNION ALL SELECT 'u7', 'i1', 4.0`

func TestRecommenderTextIDs(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, smallRatings)
	train := "SELECT count(*) FROM train_recommender('sr', model := 'txt', user := 'usr', item := 'itm', rating := 'stars', " +
		"hidden := [8], epochs := 3, test_fraction := 0.2, min_user_ratings := 2)"
	if n := scanOne[int](t, conn, train); n != 3 {
		t.Fatalf("%d epochs streamed, want 3", n)
	}
	if n := scanOne[int](t, conn, "SELECT entities FROM mlops.models WHERE name = 'txt'"); n != 6 {
		t.Errorf("min_user_ratings := 2 kept %d users, want 6 (u7 has one rating)", n)
	}
	var item string
	var score float64
	if err := conn.QueryRow(ctx, "SELECT item, score FROM recommend('txt', user_id := 'u3', k := 1, exclude_seen := false)").Scan(&item, &score); err != nil {
		t.Fatal(err)
	}
	if item == "" || item[0] != 'i' || score < 1 || score > 5 {
		t.Errorf("recommend: item %q score %v, want a text item id and a score in the ratings' scale", item, score)
	}
	// u3 has not rated i2 alone, and rated every other item.
	if got := scanOne[string](t, conn, "SELECT string_agg(item, ',') FROM recommend('txt', user_id := 'u3')"); got != "i2" {
		t.Errorf("recommend left %q for u3, want i2 alone", got)
	}
	// The text overload returns text items.
	if got := scanOne[string](t, conn, "SELECT (recommendations('txt', 'u3', 5))[1].item"); got != "i2" {
		t.Errorf("recommendations for u3: %q, want i2", got)
	}
	if got := scanOne[string](t, conn, "SELECT typeof(recommendations('txt', usr, 2)) FROM sr LIMIT 1"); got != "STRUCT(item VARCHAR, score DOUBLE)[]" {
		t.Errorf("recommendations over text ids is %s", got)
	}
	expectErrors(t, conn, []failing{
		{"SELECT * FROM recommend('txt', user_id := 'u7')", "22023", "is not a user txt@1 was trained on"},
		{"SELECT recommendations('txt', 5, 2)", "42804", "has text item ids"},
	})
}

// TestRecommenderErrors checks each bad input fails with its SQLSTATE
// before any training run is recorded.
func TestRecommenderErrors(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeCacheStatement)
	exec(t, conn, smallRatings,
		"CREATE TABLE dup AS SELECT * FROM sr UNION ALL SELECT 'u1', 'i1', 2.0",
		"CREATE TABLE nulls AS SELECT * FROM sr UNION ALL SELECT 'u1', 'i9', NULL",
		"CREATE TABLE nullid AS SELECT * FROM sr UNION ALL SELECT NULL, 'i9', 3.0",
		"CREATE TABLE words AS SELECT usr, itm, CAST(stars AS VARCHAR) AS stars FROM sr",
		"CREATE TABLE reals AS SELECT 1.5 AS usr, itm, stars FROM sr",
		"CREATE TABLE none AS SELECT * FROM sr WHERE false",
		"CREATE TABLE gw AS SELECT i AS t, sin(i) AS a, cos(i) AS b FROM range(40) r(i)")
	scanOne[int](t, conn, "SELECT count(*) FROM train_gat('gw', model := 'g', time := ['t'], epochs := 1, hidden := [2])")
	cols := ", user := 'usr', item := 'itm', rating := 'stars', epochs := 1, hidden := [4]"
	expectErrors(t, conn, []failing{
		{"SELECT * FROM train_recommender('words', model := 'm'" + cols + ")", "42804", "ratings must be numeric"},
		{"SELECT * FROM train_recommender('reals', model := 'm'" + cols + ")", "42804", "ids must be integers within BIGINT (TINYINT to BIGINT, UTINYINT to UINTEGER) or text"},
		{"SELECT * FROM train_recommender('nulls', model := 'm'" + cols + ")", "22004", "the rating of user u1 for item i9 is NULL"},
		{"SELECT * FROM train_recommender('nullid', model := 'm'" + cols + ")", "22004", "user column usr has a NULL"},
		{"SELECT * FROM train_recommender('none', model := 'm'" + cols + ")", "22000", "has no ratings"},
		{"SELECT * FROM train_recommender('dup', model := 'm'" + cols + ")", "23505", "user u1 rated item i1 more than once"},
		{"SELECT * FROM train_recommender('sr', model := 'm', user := 'nobody')", "42703", "user := 'nobody' names no column"},
		{"SELECT * FROM train_recommender('sr'" + cols + ")", "42883", "argument model is required"},
		{"SELECT * FROM train_recommender('sr', model := 'm'" + cols + ", test_fraction := 1)", "22023", "test_fraction := 1 is out of range"},
		{"SELECT * FROM train_recommender('sr', model := 'm'" + cols + ", duplicates := 'sum')", "22023", "duplicates := 'sum' is not accepted"},
		{"SELECT * FROM train_recommender('sr', model := 'm'" + cols + ", activation := 'swish')", "22023", "activation := 'swish' is not accepted"},
		{"SELECT * FROM train_recommender('sr', model := 'g'" + cols + ")", "42710", "model 'g' is of kind gat, not recommender"},
		{"SELECT * FROM recommend('nothing', user_id := 1)", "42704", "does not exist"},
		{"SELECT * FROM recommend('g', user_id := 1)", "42809", "is of kind gat, not recommender"},
	})
	if n := scanOne[int](t, conn, "SELECT count(*) FROM mlops.training_runs WHERE kind = 'recommender'"); n != 0 {
		t.Errorf("%d recommender training runs recorded by failing calls, want 0", n)
	}
	// duplicates := 'avg' keeps the mean of the two ratings of (u1, i1).
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('dup', model := 'avg'"+cols+", duplicates := 'avg', test_fraction := 0.2)")
	if n := scanOne[int](t, conn, "SELECT rows FROM mlops.models WHERE name = 'avg'"); n != 25 {
		t.Errorf("duplicates := 'avg' kept %d ratings, want 25", n)
	}
	expectErrors(t, conn, []failing{
		{"SELECT * FROM recommend('avg', user_id := 'u1', k := 0)", "22023", "k := 0 is out of range"},
		{"SELECT recommendations('avg', 'u1', 0)", "22023", "k := 0 is out of range"},
		{"SELECT * FROM recommend('avg')", "42883", "argument user_id is required"},
		{"SELECT * FROM recommend('avg', user_id := 'u1', items := 'gw')", "42703", "has no column itm"},
	})
	// Damaged weights are refused, not served.
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('sr', model := 'bad'"+cols+", test_fraction := 0.2)")
	tamper(t, db, "UPDATE mlops.artifacts SET data = CAST('damaged' AS BLOB) WHERE name = 'bad'")
	expectErrors(t, conn, []failing{
		{"SELECT * FROM recommend('bad', user_id := 'u1')", "XX001", "do not match their checksum"},
	})
}
