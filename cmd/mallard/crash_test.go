//go:build duckdb_arrow

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

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
	var epochs []int64
	rows, err = conn.Query(ctx, fmt.Sprintf("SELECT epoch FROM train_gat('uw', resume := 'g', epochs := %d)", checkpoint+2))
	if err != nil {
		t.Fatal(err)
	}
	if epochs, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil || len(epochs) != 2 || epochs[0] != int64(checkpoint+1) {
		t.Fatalf("resume after the crash: epochs %v (%v), want %d and %d", epochs, err, checkpoint+1, checkpoint+2)
	}
	var status string
	if err := conn.QueryRow(ctx, "SELECT status FROM mlops.models WHERE name = 'g' AND version = 2").Scan(&status); err != nil || status != "ready" {
		t.Errorf("the resumed version is %q (%v)", status, err)
	}
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
