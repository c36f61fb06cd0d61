//go:build duckdb_arrow

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/internal/testserver"
)

// TestKilledDuringTraining kills the real server process with SIGKILL in
// the middle of a training run and starts it again on the same file, which
// opens with no manual step: no run is left training or queued, the
// training data is intact, every ready model loads and forecasts, and the
// interrupted run resumes from its last checkpoint.
func TestKilledDuringTraining(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "m.duckdb")
	ctx := context.Background()

	server := startMallard(t, dbPath)
	conn := server.connect(t)
	execAll(t, conn, testserver.Unemployment(t)...)
	execAll(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'done', epochs := 3, hidden := [4, 4], scaler := 'u')")
	var uwRows int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM uw").Scan(&uwRows); err != nil {
		t.Fatal(err)
	}
	trainUntilCheckpoint(t, server, conn)
	server.kill(t)

	// The restart needs no manual step: startMallard waits for a query to succeed.
	conn = startMallard(t, dbPath).connect(t)
	if n := trainingLeft(t, conn); n != 0 {
		t.Fatalf("%d runs left training after the restart", n)
	}
	var left, uwAfter int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM mlops.training_runs WHERE status IN ('training', 'queued')").Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d runs left training or queued after the restart (%v)", left, err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM uw").Scan(&uwAfter); err != nil || uwAfter != uwRows {
		t.Fatalf("uw has %d rows after the restart (%v), had %d", uwAfter, err, uwRows)
	}
	checkpoint := interruptedAt(t, conn, "g")
	rows, err := conn.Query(ctx, "SELECT name || '@' || version FROM mlops.models WHERE status = 'ready'")
	if err != nil {
		t.Fatal(err)
	}
	ready, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(ready) != 1 {
		t.Fatalf("ready models %v (%v), want done@1", ready, err)
	}
	for _, ref := range ready {
		var n int
		if err := conn.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM forecast('%s', steps := 2)", ref)).Scan(&n); err != nil || n != 28 {
			t.Errorf("forecast(%s): %d rows (%v), want 28", ref, n, err)
		}
	}
	resumedTo(t, conn, fmt.Sprintf("SELECT epoch FROM train_gat('uw', resume := 'g', epochs := %d)", checkpoint+2), "g", checkpoint)
}

// interruptedAt checks that model's run and version are marked
// interrupted after a server restart, with a checkpoint of epoch 4 or
// later, and returns that epoch.
func interruptedAt(t *testing.T, conn *pgx.Conn, model string) int {
	t.Helper()
	var runStatus, modelStatus string
	var checkpoint int
	if err := conn.QueryRow(context.Background(), `SELECT r.status, m.status, m.checkpoint_epoch FROM mlops.training_runs r
		JOIN mlops.models m ON m.name = r.model AND m.version = r.version WHERE r.model = $1`, model).Scan(&runStatus, &modelStatus, &checkpoint); err != nil {
		t.Fatal(err)
	}
	if runStatus != "interrupted" || modelStatus != "interrupted" || checkpoint < 4 {
		t.Fatalf("%s after the restart: run %s, model %s, checkpoint epoch %d", model, runStatus, modelStatus, checkpoint)
	}
	return checkpoint
}

// TestKilledDuringRecommenderTraining kills the real server with SIGKILL
// while a train_recommender run trains, checkpointing every 2 epochs: the
// server started again marks the run interrupted with its last
// checkpoint, which serves, and resume := continues it from the epoch
// after to a ready version that recommend serves. A stop by SIGTERM
// during a later resumed run logs the train_recommender call that
// resumes it, and no train_gat one.
func TestKilledDuringRecommenderTraining(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "m.duckdb")
	ctx := context.Background()
	server := startMallard(t, dbPath)
	conn := server.connect(t)
	execAll(t, conn, `CREATE TABLE r AS SELECT u AS user_id, i AS item_id, CAST(1 + (u * 7 + i * 13) % 5 AS DOUBLE) AS rating
		FROM range(60) t(u), range(40) s(i) WHERE (u * 31 + i * 17) % 3 = 0`)
	trainUntil(t, server, conn, "SELECT count(*) FROM train_recommender('r', model := 'rm', epochs := 100000, hidden := [16], batch_size := 16, checkpoint_every := 2)", "rm", time.Minute)
	server.kill(t)

	server = startMallard(t, dbPath, "--log-level", "info", "--shutdown-grace", "1s")
	conn = server.connect(t)
	checkpoint := interruptedAt(t, conn, "rm")
	var served int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM recommend('rm@1', user_id := 7, k := 5)").Scan(&served); err != nil || served != 5 {
		t.Errorf("recommend from the interrupted version's checkpoint: %d rows (%v), want 5", served, err)
	}
	resumedTo(t, conn, fmt.Sprintf("SELECT epoch FROM train_recommender('r', resume := 'rm', epochs := %d)", checkpoint+2), "rm", checkpoint)
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM recommend('rm', user_id := 7, k := 5)").Scan(&served); err != nil || served != 5 {
		t.Errorf("recommend from the resumed version: %d rows (%v), want 5", served, err)
	}

	trained := trainUntil(t, server, conn, "SELECT count(*) FROM train_recommender('r', resume := 'rm', epochs := 100000, checkpoint_every := 2)", "rm", time.Minute)
	exited := server.terminate(t)
	if err := <-trained; !isShutdown(err) {
		t.Errorf("the training statement: %v, want 57P01", err)
	}
	exitWithin(t, exited, 30*time.Second)
	log := server.logText(t)
	if !strings.Contains(log, `resume them with train_recommender(..., resume := 'model')" run_ids=[3]`) || strings.Contains(log, "train_gat") {
		t.Errorf("the log does not tell to resume the interrupted run with train_recommender alone:\n%s", log)
	}
}
