//go:build duckdb_arrow

package functions_test

import (
	"context"
	"math"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestRecommenderRanking trains the ranking objective through SQL, on
// ratings and on implicit data, and checks what its rows, its metrics and
// its recommendations say: no RMSE anywhere, ranking metrics, and scores
// that are probabilities over the items.
func TestRecommenderRanking(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, smallRatings, "CREATE TABLE imp AS SELECT usr, itm FROM sr")
	rows, err := conn.Query(ctx, `SELECT epoch, train_rmse, test_rmse, recall_at_10, ndcg_at_10, elapsed_ms FROM train_recommender('sr',
		model := 'rk', user := 'usr', item := 'itm', rating := 'stars', objective := 'ranking', relevant := 3, dropout := 0.2,
		epochs := 3, hidden := [4], test_fraction := 0.3)`)
	if err != nil {
		t.Fatal(err)
	}
	var epochs []int64
	for rows.Next() {
		var epoch int64
		var trainRMSE, testRMSE, recall, ndcg *float64
		var ms float64
		if err := rows.Scan(&epoch, &trainRMSE, &testRMSE, &recall, &ndcg, &ms); err != nil {
			t.Fatal(err)
		}
		if trainRMSE != nil || testRMSE != nil {
			t.Errorf("epoch %d: train_rmse %v, test_rmse %v, want NULL: a ranking model predicts no ratings", epoch, trainRMSE, testRMSE)
		}
		if recall == nil || ndcg == nil || *recall < 0 || *recall > 1 || *ndcg < 0 || *ndcg > 1 || ms <= 0 {
			t.Errorf("epoch %d: recall_at_10 %v, ndcg_at_10 %v, elapsed_ms %v", epoch, recall, ndcg, ms)
		}
		epochs = append(epochs, epoch)
	}
	if err := rows.Err(); err != nil || len(epochs) != 3 {
		t.Fatalf("epochs %v, error %v; want 1..3", epochs, err)
	}
	if loss := scanOne[float64](t, conn, "SELECT train_loss FROM mlops.training_metrics WHERE epoch = 3"); !(loss > 0) {
		t.Errorf("train_loss of epoch 3 is %v, want the positive negative log-likelihood", loss)
	}

	// evaluate: the model has no RMSE, the baselines have theirs.
	rows, _ = conn.Query(ctx, "SELECT method, test_rmse, recall_at_10 FROM evaluate('rk')")
	seen := map[string]bool{}
	for rows.Next() {
		var method string
		var rmse, recall *float64
		if err := rows.Scan(&method, &rmse, &recall); err != nil {
			t.Fatal(err)
		}
		seen[method] = true
		if method == "autorec" && (rmse != nil || recall == nil) || (method == "popularity" || method == "item_mean") && rmse == nil {
			t.Errorf("evaluate, %s: test_rmse %v recall_at_10 %v; the ranking model's RMSE is NULL, the baselines' not", method, rmse, recall)
		}
	}
	if !seen["autorec"] || !seen["popularity"] {
		t.Errorf("evaluate gave the methods %v", seen)
	}

	// Every item's score is its probability: they sum to 1.
	if sum := scanOne[float64](t, conn, "SELECT sum(score) FROM recommend('rk', user_id := 'u3', k := 5, exclude_seen := false)"); math.Abs(sum-1) > 1e-9 {
		t.Errorf("the scores of every item sum to %v, want 1", sum)
	}

	// A user the model does not know gets the items most often rated at
	// least relevant (3 here), scored by their share of those ratings, as
	// the model's scores are probabilities too.
	got := scanOne[string](t, conn, "SELECT string_agg(item || ' ' || round(score, 9), ',' ORDER BY score DESC, item) "+
		"FROM recommend('rk', user_id := 'nobody', k := 5, fallback := 'popular')")
	want := scanOne[string](t, conn, "SELECT string_agg(itm || ' ' || round(share, 9), ',' ORDER BY share DESC, itm) "+
		"FROM (SELECT itm, CAST(count(*) AS DOUBLE) / sum(count(*)) OVER () AS share FROM sr WHERE stars >= 3 GROUP BY itm)")
	if got != want {
		t.Errorf("the fallback for a user the model does not know: %q, want popularity %q", got, want)
	}

	// Implicit data: interactions without ratings.
	if n := scanOne[int](t, conn, `SELECT count(*) FROM train_recommender('imp', model := 'imp', user := 'usr', item := 'itm',
		implicit := true, objective := 'ranking', epochs := 2, hidden := [4], test_fraction := 0.3)`); n != 2 {
		t.Errorf("implicit training streamed %d rows, want 2", n)
	}
	if got := scanOne[string](t, conn, "SELECT json_extract_string(hyperparameters, '$.implicit') || ' ' || json_extract_string(hyperparameters, '$.relevant') FROM mlops.models WHERE name = 'imp'"); got != "true 1" {
		t.Errorf("recorded implicit and relevant %q, want \"true 1\"", got)
	}
}

// TestRecommenderRankingVAE trains objective := 'ranking_vae' through SQL
// and checks that the run records its objective, anneal cap and negatives
// (by default, over so few items, the exact softmax: 0, which the record
// leaves out; named, what was named), reports a training loss and ranking
// metrics but no RMSE, and recommends.
func TestRecommenderRankingVAE(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, smallRatings)
	if n := scanOne[int](t, conn, `SELECT count(*) FROM train_recommender('sr', model := 'vae', user := 'usr', item := 'itm',
		rating := 'stars', objective := 'ranking_vae', anneal_cap := 0.5, relevant := 3, epochs := 3, hidden := [4], test_fraction := 0.3)
		WHERE train_rmse IS NULL AND recall_at_10 BETWEEN 0 AND 1`); n != 3 {
		t.Errorf("%d epochs with no RMSE and a Recall@10, want 3", n)
	}
	if got := scanOne[string](t, conn, "SELECT json_extract_string(hyperparameters, '$.objective') || ' ' || json_extract_string(hyperparameters, '$.anneal_cap') || ' ' || "+
		"coalesce(json_extract_string(hyperparameters, '$.negatives'), '0') FROM mlops.models WHERE name = 'vae'"); got != "ranking_vae 0.5 0" {
		t.Errorf("recorded objective, anneal_cap and negatives %q, want \"ranking_vae 0.5 0\" (the exact softmax: the objective's default up to 10,000 items)", got)
	}
	exec(t, conn, `SELECT count(*) FROM train_recommender('sr', model := 'vae_sampled', user := 'usr', item := 'itm',
		rating := 'stars', objective := 'ranking_vae', negatives := 3, relevant := 3, epochs := 1, hidden := [4], test_fraction := 0.3)`)
	if got := scanOne[string](t, conn, "SELECT json_extract_string(hyperparameters, '$.negatives') FROM mlops.models WHERE name = 'vae_sampled'"); got != "3" {
		t.Errorf("recorded negatives %q, want \"3\" (as named)", got)
	}
	if loss := scanOne[float64](t, conn, "SELECT train_loss FROM mlops.training_metrics WHERE epoch = 3"); !(loss > 0) {
		t.Errorf("train_loss of epoch 3 is %v, want positive", loss)
	}
	if sum := scanOne[float64](t, conn, "SELECT sum(score) FROM recommend('vae', user_id := 'u3', k := 5, exclude_seen := false)"); math.Abs(sum-1) > 1e-9 {
		t.Errorf("the scores of every item sum to %v, want 1", sum)
	}
}

// TestRecommenderRankingErrors checks the ranking options' bad inputs fail
// with 22023 before any training run is recorded.
func TestRecommenderRankingErrors(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, smallRatings, "CREATE TABLE imp AS SELECT usr, itm FROM sr")
	cols := "model := 'm', user := 'usr', item := 'itm', epochs := 1, hidden := [4]"
	expectErrors(t, conn, []failing{
		{"SELECT * FROM train_recommender('sr', " + cols + ", objective := 'rmse')", "22023",
			"objective := 'rmse' is not accepted; use one of 'rating', 'ranking', 'ranking_vae'"},
		{"SELECT * FROM train_recommender('sr', " + cols + ", objective := 'ranking', dropout := 1)", "22023", "dropout := 1 is out of range"},
		{"SELECT * FROM train_recommender('sr', " + cols + ", objective := 'ranking', dropout := -0.1)", "22023", "dropout := -0.1 is out of range"},
		{"SELECT * FROM train_recommender('sr', " + cols + ", dropout := 0.2)", "22023", "dropout applies to objective := 'ranking' or 'ranking_vae' only"},
		{"SELECT * FROM train_recommender('sr', " + cols + ", negatives := 10)", "22023", "negatives applies to objective := 'ranking' or 'ranking_vae' only"},
		{"SELECT * FROM train_recommender('imp', " + cols + ", implicit := true)", "22023", "implicit := true needs objective := 'ranking'"},
		{"SELECT * FROM train_recommender('sr', " + cols + ", objective := 'ranking', implicit := true, rating := 'stars')", "22023",
			"implicit := true reads no rating column, but rating := 'stars' names one"},
		{"SELECT * FROM train_recommender('imp', " + cols + ", objective := 'ranking', implicit := true, relevant := 4)", "22023",
			"implicit := true makes every interaction relevant"},
		{"SELECT * FROM train_recommender('imp', " + cols + ", objective := 'ranking')", "42703", "rating := 'rating' names no column"},
		{"SELECT * FROM train_recommender('sr', " + cols + ", objective := 'ranking', anneal_cap := 0.5)", "22023",
			"anneal_cap applies to objective := 'ranking_vae' only, and the objective is 'ranking'"},
		{"SELECT * FROM train_recommender('sr', " + cols + ", objective := 'ranking_vae', anneal_cap := -1)", "22023", "anneal_cap := -1 is out of range"},
	})
	if n := scanOne[int](t, conn, "SELECT count(*) FROM mlops.training_runs WHERE kind = 'recommender'"); n != 0 {
		t.Errorf("%d recommender training runs recorded by failing calls, want 0", n)
	}
}
