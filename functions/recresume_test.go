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

// recResumeHyper trains with plain SGD, whose optimiser keeps no state
// between steps: a resumed run then goes on exactly as the run it
// continues would have.
const recResumeHyper = "hidden := [16], batch_size := 16, seed := 3, optimizer := 'sgd', lr := 0.5"

// trainingCurve runs a training query whose rows are an epoch and two of its
// measures (a train_recommender's RMSEs, a train_gat's MSEs) and returns
// them.
func trainingCurve(t *testing.T, conn *pgx.Conn, query string) [][3]float64 {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	var out [][3]float64
	for rows.Next() {
		var epoch int64
		var r [2]float64
		if err := rows.Scan(&epoch, &r[0], &r[1]); err != nil {
			t.Fatal(err)
		}
		out = append(out, [3]float64{float64(epoch), r[0], r[1]})
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// sameCurve fails the test unless got and want have the same epochs and
// RMSEs to 1e-9 relative.
func sameCurve(t *testing.T, what string, got, want [][3]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for e := range want {
		for k := range 3 {
			if d := math.Abs(got[e][k]-want[e][k]) / math.Abs(want[e][k]); !(d <= 1e-9) {
				t.Errorf("%s: epoch %v measure %d: %v, want %v (relative %g)", what, want[e][0], k, got[e][k], want[e][k], d)
			}
		}
	}
}

// TestRecommenderResume continues a recommender version from its weights:
// the resumed run numbers its epochs on from the version's, keeps the
// columns and options the version was trained with unless given, and,
// with a stateless optimiser, trains the epochs the uninterrupted run
// trains; the new version records what it resumed from and serves.
func TestRecommenderResume(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, smallRatingsSQL,
		"CREATE TABLE s AS SELECT user_id AS usr, item_id AS itm, rating AS stars FROM r")
	const cols = "user := 'usr', item := 'itm', rating := 'stars', "
	whole := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('s', model := 'whole', "+cols+"epochs := 5, "+recResumeHyper+")")
	first := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('s', model := 'rm', "+cols+"epochs := 3, "+recResumeHyper+")")
	sameCurve(t, "the first 3 epochs", first, whole[:3])
	// The columns, the split and the optimiser are rm@1's: left out here.
	resumed := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('s', resume := 'rm@1', epochs := 5)")
	sameCurve(t, "resumed from epoch 3", resumed, whole[3:])
	var status, resumedFrom string
	var sameData bool
	if err := conn.QueryRow(context.Background(), `SELECT m.status, r.resumed_from, m.fingerprint = (SELECT fingerprint FROM mlops.models WHERE name = 'whole')
		FROM mlops.models m JOIN mlops.training_runs r USING (run_id) WHERE m.name = 'rm' AND m.version = 2`).Scan(&status, &resumedFrom, &sameData); err != nil {
		t.Fatal(err)
	}
	if status != "ready" || resumedFrom != "rm@1" || !sameData {
		t.Errorf("rm@2: status %s, resumed from %q, same fingerprint as whole %v; want ready, rm@1, true", status, resumedFrom, sameData)
	}
	wholeRecs, resumedRecs := recommended(t, conn, "whole", 7, 5), recommended(t, conn, "rm@2", 7, 5)
	if wholeRecs != resumedRecs || strings.Count(resumedRecs, ",") != 4 {
		t.Errorf("user 7's recommendations: %s from rm@2, %s from the uninterrupted run", resumedRecs, wholeRecs)
	}
	// resume := 'rm' continues the newest version with weights, rm@2.
	more := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('s', resume := 'rm', epochs := 6)")
	if len(more) != 1 || more[0][0] != 6 {
		t.Errorf("resume := 'rm' to 6 epochs: %v, want epoch 6", more)
	}
	if s := scanOne[string](t, conn, "SELECT resumed_from FROM mlops.training_runs WHERE model = 'rm' AND version = 3"); s != "rm@2" {
		t.Errorf("rm@3 resumed from %q, want rm@2", s)
	}
	// Implicit data with the ranking objective: resumed, they read no
	// rating column still, and take the ranking objective's options.
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('r', model := 'imp', implicit := true, objective := 'ranking', hidden := [16], epochs := 1)")
	if n := scanOne[int](t, conn, "SELECT max(epoch) FROM train_recommender('r', resume := 'imp', epochs := 2, dropout := 0.2)"); n != 2 {
		t.Errorf("resumed implicit ranking model: last epoch %d, want 2", n)
	}
	if s := scanOne[string](t, conn, `SELECT json_extract_string(hyperparameters, '$.objective') || ' ' || json_extract_string(hyperparameters, '$.implicit')
		|| ' ' || json_extract_string(hyperparameters, '$.dropout') FROM mlops.models WHERE name = 'imp' AND version = 2`); s != "ranking true 0.2" {
		t.Errorf("imp@2's objective, implicit and dropout: %s, want ranking true 0.2", s)
	}
}

// TestRecommenderResumeErrors checks each bad resume := fails with its
// SQLSTATE, naming what is wrong, and registers nothing; changed data
// resumes with allow_data_change := true, changed items never.
func TestRecommenderResumeErrors(t *testing.T) {
	addr, db := startServerDB(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, smallRatingsSQL,
		"CREATE TABLE changed AS SELECT user_id, item_id, CASE WHEN user_id = 0 AND item_id = 0 THEN 6 - rating ELSE rating END AS rating FROM r",
		"CREATE TABLE more_items AS SELECT * FROM r UNION ALL SELECT 3, 40, 4.0",
		"CREATE TABLE gw AS SELECT i AS t, sin(i) AS a, cos(i) AS b FROM range(40) r(i)")
	scanOne[int](t, conn, "SELECT count(*) FROM train_gat('gw', model := 'g', time := ['t'], epochs := 1, hidden := [2])")
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('r', model := 'rm', epochs := 2, "+recResumeHyper+")")
	scanOne[int](t, conn, "SELECT count(*) FROM train_recommender('r', model := 'nw', epochs := 1, "+recResumeHyper+")")
	tamper(t, db, "UPDATE mlops.models SET status = 'failed', artifact_checksum = NULL WHERE name = 'nw'") // as a run that failed before a checkpoint
	before := scanOne[string](t, conn, "SELECT count(*) || ' ' || max(run_id) FROM mlops.training_runs")
	expectErrors(t, conn, []failing{
		{"SELECT * FROM train_recommender('r', resume := '@1', epochs := 4)", "22023", "resume: \"@1\" names no model"},
		{"SELECT * FROM train_recommender('r', resume := 'rm@x', epochs := 4)", "22023", "resume: \"rm@x\": the version after @ must be a positive integer"},
		{"SELECT * FROM train_recommender('r', resume := 'nope', epochs := 4)", "42704", "model 'nope' has no version with saved weights"},
		{"SELECT * FROM train_recommender('r', resume := 'nw', epochs := 4)", "42704", "model 'nw' has no version with saved weights"},
		{"SELECT * FROM train_recommender('r', resume := 'nw@1', epochs := 4)", "55000", "nw@1 is failed and has no saved weights"},
		{"SELECT * FROM train_recommender('r', resume := 'rm@7', epochs := 4)", "42704", "model 'rm' has no version 7"},
		{"SELECT * FROM train_recommender('r', resume := 'g', epochs := 4)", "42809", "g@1 is of kind gat, not recommender"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', epochs := 4, hidden := [8])", "22023", "hidden := [8] differs from [16] of rm@1, which resume continues"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', epochs := 4, activation := 'relu')", "22023", "activation := 'relu' differs from 'tanh' of rm@1"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', epochs := 4, output := 'identity')", "22023", "output := 'identity' differs from 'sigmoid' of rm@1"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', epochs := 4, objective := 'ranking')", "22023", "objective := 'ranking' differs from 'rating' of rm@1"},
		{"SELECT * FROM train_recommender('r', resume := 'rm')", "22023", "rm@1 has trained 2 epochs; to resume it, epochs must be more than that, not 2"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', epochs := 1)", "22023", "epochs must be more than that, not 1"},
		{"SELECT * FROM train_recommender('changed', resume := 'rm', epochs := 4)", "22023", "resume: the data differs from the data rm@1 was trained on"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', epochs := 4, seed := 4)", "22023", "resume: the data differs"},
		{"SELECT * FROM train_recommender('more_items', resume := 'rm', epochs := 4, allow_data_change := true)", "22023", "resume: the source's items differ from those rm@1 was trained on"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', model := 'g', epochs := 4)", "42710", "model 'g' is of kind gat, not recommender"},
		{"SELECT * FROM train_recommender('r', resume := 'rm', epochs := 4, user := 'nobody')", "42703", "user := 'nobody' names no column"},
	})
	if after := scanOne[string](t, conn, "SELECT count(*) || ' ' || max(run_id) FROM mlops.training_runs"); after != before {
		t.Errorf("training runs (count, last id) %s after the failing calls, %s before", after, before)
	}
	if e := errorCode(t, conn, "SELECT * FROM train_recommender('more_items', resume := 'rm', epochs := 4, allow_data_change := true)"); !strings.Contains(e.Detail, "has weights for 40 items; the ratings to train on have 41") {
		t.Errorf("changed items: detail %q", e.Detail)
	}
	// Changed ratings of the same items resume when allowed, into another model if named.
	got := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('changed', resume := 'rm', model := 'rm2', epochs := 4, allow_data_change := true)")
	if len(got) != 2 || got[0][0] != 3 {
		t.Errorf("resumed on changed data: %v, want epochs 3 and 4", got)
	}
	if s := scanOne[string](t, conn, "SELECT status || ' ' || version || ' ' || (SELECT resumed_from FROM mlops.training_runs WHERE model = 'rm2') FROM mlops.models WHERE name = 'rm2'"); s != "ready 1 rm@1" {
		t.Errorf("rm2: %s, want ready 1 rm@1", s)
	}
}

// recommended is the list of the k items that ref recommends to user, best
// first, as text.
func recommended(t *testing.T, conn *pgx.Conn, ref string, user, k int) string {
	t.Helper()
	return scanOne[string](t, conn, fmt.Sprintf("SELECT CAST(list(item ORDER BY rank) AS VARCHAR) FROM recommend('%s', user_id := %d, k := %d)", ref, user, k))
}
