//go:build duckdb_arrow && mpi

package functions_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestRanksClassifier checks train_classifier and train_regressor across
// ranks under mpirun: each run streams the curve of a local run with as
// many workers in all (train and validation loss to 1e-9 relative, the
// same validation accuracy), a NOTICE per epoch naming the ranks, and
// registers a ready version recording them, with the local run's test
// accuracy (its test RMSE for the regressor, to 1e-9): an MLP on
// penguins with 2 x 1 and 2 x 2 workers, a small CNN on 8 x 8 images, a
// regressor on cars.
func TestRanksClassifier(t *testing.T) {
	jobs := t.TempDir()
	var notices []string
	conn := connectWithNotices(t, mpiAddr(t, "", jobs), pgx.QueryExecModeSimpleProtocol, &notices)
	loadPenguins(t, conn)
	loadCars(t, conn)
	exec(t, conn, barsSQL...)
	const mlp = "'penguins', label := 'species', hidden := [16], epochs := 4, batch_size := 16, patience := 0, seed := 3"
	const cnn = "'SELECT * FROM bars WHERE i < 64 OR i >= 368', label := 'label', shape := [1, 8, 8], split := 'part', architecture := 'cnn', epochs := 2, batch_size := 16, lr := 0.01"
	const reg = "'SELECT * FROM cars WHERE mpg IS NOT NULL AND horsepower IS NOT NULL', target := 'mpg', hidden := [8], epochs := 3, batch_size := 32, patience := 0"
	for _, tc := range []struct {
		name, fn, args, method string
		ranks, workers         int
	}{
		{"mlp21", "train_classifier", mlp, "mlp", 2, 1},
		{"mlp22", "train_classifier", mlp, "mlp", 2, 2},
		{"cnn22", "train_classifier", cnn, "cnn", 2, 2},
		{"reg21", "train_regressor", reg, "mlp", 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			local := trainRows(t, conn, fmt.Sprintf("SELECT * FROM %s(%s, model := '%s_local', workers := %d)", tc.fn, tc.args, tc.name, tc.ranks*tc.workers))
			notices = nil
			across := trainRows(t, conn, fmt.Sprintf("SELECT * FROM %s(%s, model := '%s', ranks := %d, workers := %d)", tc.fn, tc.args, tc.name, tc.ranks, tc.workers))
			if len(across) != len(local) || len(local) < 2 {
				t.Fatalf("%d epochs across ranks, %d locally", len(across), len(local))
			}
			for e, l := range local {
				a := across[e]
				if a.Epoch != l.Epoch || !close9(a.TrainLoss, l.TrainLoss) || !close9(*a.ValLoss, *l.ValLoss) || !close9(*a.ValMetric, *l.ValMetric) ||
					tc.fn == "train_classifier" && *a.ValMetric != *l.ValMetric {
					t.Errorf("epoch %d: %v %v %v across ranks, %v %v %v locally", l.Epoch, a.TrainLoss, *a.ValLoss, *a.ValMetric, l.TrainLoss, *l.ValLoss, *l.ValMetric)
				}
			}
			epochNotices := 0
			for _, n := range notices {
				if strings.HasPrefix(n, tc.fn+" "+tc.name+"@1: epoch ") && strings.HasSuffix(n, fmt.Sprintf("; %d ranks", tc.ranks)) {
					epochNotices++
				}
			}
			if epochNotices != len(local) {
				t.Errorf("%d epoch NOTICEs naming the ranks, want %d: %q", epochNotices, len(local), notices)
			}
			var status, params string
			var testLoss, localLoss float64
			if err := conn.QueryRow(context.Background(), `SELECT status, CAST(hyperparameters AS VARCHAR), test_loss,
				(SELECT test_loss FROM mlops.models WHERE name = $1 || '_local') FROM mlops.models WHERE name = $1`, tc.name).
				Scan(&status, &params, &testLoss, &localLoss); err != nil {
				t.Fatal(err)
			}
			if status != "ready" || !strings.Contains(params, fmt.Sprintf(`"ranks":%d`, tc.ranks)) || !strings.Contains(params, fmt.Sprintf(`"workers":%d`, tc.ranks*tc.workers)) {
				t.Errorf("%s: status %s, hyperparameters %s; want ready, %d ranks, %d workers in all", tc.name, status, params, tc.ranks, tc.ranks*tc.workers)
			}
			if !close9(testLoss, localLoss) {
				t.Errorf("test loss %v across ranks, %v locally", testLoss, localLoss)
			}
			if tc.fn == "train_classifier" {
				la, aa := evaluateClassifier(t, conn, tc.name+"_local")[tc.method], evaluateClassifier(t, conn, tc.name)[tc.method]
				if la.Rows == 0 || aa.Accuracy != la.Accuracy || aa.Rows != la.Rows {
					t.Errorf("test accuracy %v on %d rows across ranks, %v on %d locally", aa.Accuracy, aa.Rows, la.Accuracy, la.Rows)
				}
			}
		})
	}
	if left, _ := os.ReadDir(jobs); len(left) != 0 {
		t.Errorf("the job directory keeps %d entries after runs that succeeded", len(left))
	}
}

// close9 tells whether a and b agree to 1e-9 relative.
func close9(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-9*math.Abs(b) }

// TestRanksClassifierRefused checks train_classifier's refusals across
// ranks: more workers in all than a batch holds (22023, naming both), and
// a rank that fails, which fails the run with its error (58030) and
// leaves the version failed with nothing stored or deployed.
func TestRanksClassifierRefused(t *testing.T) {
	conn := mpiServer(t, failingWorker(t), t.TempDir())
	loadPenguins(t, conn)
	e := errorCode(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'wide', ranks := 2, workers := 40, batch_size := 64)")
	if e.Code != "22023" || !strings.Contains(e.Message, "ranks := 2 x workers := 40") || !strings.Contains(e.Message, "workers 80") {
		t.Errorf("2 x 40 workers for a batch of 64: %s %s, want 22023 naming both", e.Code, e.Message)
	}
	e = errorCode(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'bad', ranks := 2, epochs := 3)")
	if e.Code != "58030" || !strings.Contains(e.Message, "rank 1 breaks on purpose") {
		t.Errorf("error %s %s, want 58030 with rank 1's stderr", e.Code, e.Message)
	}
	var models, ready, artifacts, deployments int64
	if err := conn.QueryRow(context.Background(), `SELECT count(*), count(*) FILTER (WHERE status <> 'failed'),
		(SELECT count(*) FROM mlops.artifacts), (SELECT count(*) FROM mlops.deployments) FROM mlops.models`).
		Scan(&models, &ready, &artifacts, &deployments); err != nil {
		t.Fatal(err)
	}
	if models != 1 || ready != 0 || artifacts != 0 || deployments != 0 {
		t.Errorf("%d versions, %d not failed, %d artifacts, %d deployments; want the failed run's version alone, nothing stored", models, ready, artifacts, deployments)
	}
}

// TestRanksClassifierCheckpointResume checks checkpoints of a
// train_classifier run across ranks and resume with ranks: canceled, the
// run keeps rank 0's last checkpoint (checkpoint_every := 2), which
// predict serves, and resume := with ranks := 2 continues from it the
// curve a local resume with as many workers trains, to 1e-9 relative.
func TestRanksClassifierCheckpointResume(t *testing.T) {
	conn := mpiServer(t, "", t.TempDir())
	loadPenguins(t, conn)
	conn, checkpoint := cancelAfter(t, conn, "SELECT epoch FROM train_classifier('penguins', label := 'species', model := 'c', ranks := 2, epochs := 100000, hidden := [8], batch_size := 16, checkpoint_every := 2, patience := 0)", "c", 5)
	var served int
	if err := conn.QueryRow(context.Background(), "SELECT count(prediction) FROM predict('c@1', source := 'penguins')").Scan(&served); err != nil || served != 344 {
		t.Errorf("predict from the canceled run's checkpoint: %d predictions, %v; want 344", served, err)
	}
	epochs := checkpoint + 3
	across := trainRows(t, conn, fmt.Sprintf("SELECT * FROM train_classifier('penguins', resume := 'c@1', ranks := 2, epochs := %d)", epochs))
	local := trainRows(t, conn, fmt.Sprintf("SELECT * FROM train_classifier('penguins', resume := 'c@1', workers := 2, epochs := %d)", epochs))
	if len(across) != 3 || len(local) != 3 || across[0].Epoch != int64(checkpoint+1) {
		t.Fatalf("resumed across ranks: %d epochs from %d; locally %d; want epochs %d to %d", len(across), across[0].Epoch, len(local), checkpoint+1, epochs)
	}
	for e, l := range local {
		if a := across[e]; a.Epoch != l.Epoch || !close9(a.TrainLoss, l.TrainLoss) || !close9(*a.ValLoss, *l.ValLoss) || *a.ValMetric != *l.ValMetric {
			t.Errorf("epoch %d: %v %v %v resumed across 2 ranks, %v %v %v with 2 workers", l.Epoch, a.TrainLoss, *a.ValLoss, *a.ValMetric, l.TrainLoss, *l.ValLoss, *l.ValMetric)
		}
	}
}
