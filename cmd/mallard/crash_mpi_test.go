//go:build duckdb_arrow && mpi

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mallard/mallard/internal/testserver"
)

// TestKilledDuringMPITraining kills the real server process (built with
// MPI) with SIGKILL while a train_gat run, then a train_recommender run,
// trains across 2 ranks: mpirun and the ranks stop with it, the server
// started again marks the run interrupted with rank 0's last checkpoint,
// and resume with ranks := 2 continues from that checkpoint to a ready
// version.
func TestKilledDuringMPITraining(t *testing.T) {
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	t.Setenv("OMPI_MCA_rmaps_base_oversubscribe", "1")
	ratings := `CREATE TABLE r AS SELECT u AS user_id, i AS item_id, CAST(1 + (u * 7 + i * 13) % 5 AS DOUBLE) AS rating
		FROM range(60) t(u), range(40) s(i) WHERE (u * 31 + i * 17) % 3 = 0`
	for _, tt := range []struct {
		name          string
		setup         []string
		train, resume string // resume takes the epochs to train to
	}{
		{"train_gat", testserver.Unemployment(t),
			"SELECT count(*) FROM train_gat('uw', model := 'g', ranks := 2, epochs := 1000000, hidden := [4, 4], checkpoint_every := 2, patience := 0)",
			"SELECT epoch FROM train_gat('uw', resume := 'g', ranks := 2, epochs := %d)"},
		{"train_recommender", []string{ratings},
			"SELECT count(*) FROM train_recommender('r', model := 'g', ranks := 2, epochs := 100000, hidden := [16], batch_size := 16, checkpoint_every := 2)",
			"SELECT epoch FROM train_recommender('r', resume := 'g', ranks := 2, epochs := %d)"},
	} {
		t.Run(tt.name, func(t *testing.T) { killDuringMPITraining(t, tt.setup, tt.train, tt.resume) })
	}
}

// killDuringMPITraining runs setup, then train, a long run of model g
// across ranks, kills the server once g has a checkpoint of epoch 4 or
// later, and resumes g with resume (a format taking the epochs to train
// to) on a server started again.
func killDuringMPITraining(t *testing.T, setup []string, train, resume string) {
	dir := t.TempDir()
	dbPath, jobs := filepath.Join(dir, "m.duckdb"), filepath.Join(dir, "jobs")
	ctx := context.Background()
	server := startMallard(t, dbPath, "--job-dir", jobs)
	conn := server.connect(t)
	for _, q := range setup {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	trainUntil(t, server, conn, train, "g", 90*time.Second)
	if len(testserver.ProcessesUnder(jobs)) == 0 {
		t.Fatal("no process of the MPI job runs while it trains")
	}
	server.kill(t)
	for deadline := time.Now().Add(15 * time.Second); len(testserver.ProcessesUnder(jobs)) > 0 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	if left := testserver.ProcessesUnder(jobs); len(left) > 0 {
		t.Errorf("processes of the MPI job still run after the server was killed: %q", left)
	}

	conn = startMallard(t, dbPath, "--job-dir", jobs).connect(t)
	checkpoint := interruptedAt(t, conn, "g")
	resumedTo(t, conn, fmt.Sprintf(resume, checkpoint+2), "g", checkpoint)
}
