//go:build duckdb_arrow && mpi

package functions_test

import (
	"context"
	"os"
	"testing"
)

// TestRanksRecommenderResume checks resume := with ranks := 2: the server
// writes the resumed version's model into the job as its start, and the
// ranks go on from it to the curve that the uninterrupted run trains with
// as many workers in one process (to 1e-9 relative); a version trained
// across ranks resumes in one process alike, and both record what they
// resumed from.
func TestRanksRecommenderResume(t *testing.T) {
	jobs := t.TempDir()
	conn := mpiServer(t, "", jobs)
	exec(t, conn, smallRatingsSQL)
	whole := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'whole', workers := 2, epochs := 5, "+recResumeHyper+")")
	first := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'rm', workers := 2, epochs := 3, "+recResumeHyper+")")
	sameCurve(t, "the first 3 epochs", first, whole[:3])
	across := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', resume := 'rm@1', ranks := 2, epochs := 5)")
	sameCurve(t, "resumed across 2 ranks", across, whole[3:])
	// rm@2, trained across ranks, resumes in this process with 2 workers.
	local := trainingCurve(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', resume := 'rm@2', workers := 2, epochs := 6)")
	if len(local) != 1 || local[0][0] != 6 {
		t.Errorf("rm@2 resumed in this process: %v, want epoch 6", local)
	}
	for version, want := range map[int]string{2: "ready rm@1 2", 3: "ready rm@2 0"} {
		var status, from string
		var ranks int
		if err := conn.QueryRow(context.Background(), `SELECT m.status, r.resumed_from, coalesce(CAST(json_extract(m.hyperparameters, '$.ranks') AS INTEGER), 0)
			FROM mlops.models m JOIN mlops.training_runs r USING (run_id) WHERE m.name = 'rm' AND m.version = $1`, version).Scan(&status, &from, &ranks); err != nil {
			t.Fatal(err)
		}
		if got := status + " " + from + " " + itoa(int64(ranks)); got != want {
			t.Errorf("rm@%d: status, resumed from, ranks %s; want %s", version, got, want)
		}
	}
	if left, _ := os.ReadDir(jobs); len(left) != 0 {
		t.Errorf("the job directory keeps %d entries after the runs", len(left))
	}
}
