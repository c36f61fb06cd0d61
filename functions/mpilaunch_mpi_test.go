//go:build duckdb_arrow && mpi

package functions_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/server"
)

var (
	mpiBuild   sync.Once
	mpiBin     string
	mpiVersion string
	mpiErr     error
)

// TestMain removes the binary mpiMallard built.
func TestMain(m *testing.M) {
	code := m.Run()
	if mpiBin != "" {
		os.RemoveAll(filepath.Dir(mpiBin))
	}
	os.Exit(code)
}

// mpiMallard builds cmd/mallard with MPI, once per test binary, and
// returns its path and version.
func mpiMallard(t *testing.T) (string, string) {
	t.Helper()
	mpiBuild.Do(func() {
		dir, err := os.MkdirTemp("", "mallard-mpi-")
		if err != nil {
			mpiErr = err
			return
		}
		mpiBin = filepath.Join(dir, "mallard")
		if out, err := osexec.Command("go", "build", "-tags", "duckdb_arrow,mpi", "-o", mpiBin, "../cmd/mallard").CombinedOutput(); err != nil {
			mpiErr = fmt.Errorf("%v\n%s", err, out)
			return
		}
		out, err := osexec.Command(mpiBin, "version").Output()
		if f := strings.Fields(string(out)); err != nil || len(f) < 2 {
			mpiErr = fmt.Errorf("mallard version: %v (%q)", err, out)
		} else {
			mpiVersion = f[1]
		}
	})
	if mpiErr != nil {
		t.Fatalf("build mallard with MPI: %v", mpiErr)
	}
	return mpiBin, mpiVersion
}

// mpiServer starts a server whose ranks := N runs worker (by default the
// MPI build of mallard) under mpirun, with its jobs in jobDir.
func mpiServer(t *testing.T, worker, jobDir string) *pgx.Conn {
	t.Helper()
	return connect(t, mpiAddr(t, worker, jobDir), pgx.QueryExecModeSimpleProtocol)
}

// mpiAddr starts the server of mpiServer and returns its address.
func mpiAddr(t *testing.T, worker, jobDir string) string {
	t.Helper()
	bin, version := mpiMallard(t)
	if worker == "" {
		worker = bin
	}
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	t.Setenv("OMPI_MCA_rmaps_base_oversubscribe", "1")
	return startServerWith(t, server.Config{Version: version, MPI: training.MPI{Worker: worker, JobDir: jobDir}})
}

const mpiHyper = "hidden := [16], epochs := 4, batch_size := 16, seed := 3"

// epochRows runs a train_recommender query and returns its rows' train
// and test RMSE.
func epochRows(t *testing.T, conn *pgx.Conn, query string) [][2]float64 {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]float64
	for rows.Next() {
		var epoch int64
		var r [2]float64
		if err := rows.Scan(&epoch, &r[0], &r[1]); err != nil {
			t.Fatal(err)
		}
		if epoch != int64(len(out)+1) {
			t.Fatalf("row %d is epoch %d", len(out)+1, epoch)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// TestRanksTrainAsWorkers checks that train_recommender with ranks := 2
// streams the loss curve of a local run with workers := 2 (to 1e-9
// relative), sends a NOTICE per epoch, and registers a ready model that
// serves, as a local run does; and, for the ranking objective, the same
// Recall@10 and NDCG@10 and recommendations.
func TestRanksTrainAsWorkers(t *testing.T) {
	jobs := t.TempDir()
	var notices []string
	bin, version := mpiMallard(t)
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	t.Setenv("OMPI_MCA_rmaps_base_oversubscribe", "1")
	addr := startServerWith(t, server.Config{Version: version, MPI: training.MPI{Worker: bin, JobDir: jobs}})
	conn := connectWithNotices(t, addr, pgx.QueryExecModeSimpleProtocol, &notices)
	exec(t, conn, smallRatingsSQL)
	local := epochRows(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'local', workers := 2, "+mpiHyper+")")
	notices = nil
	across := epochRows(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'across', ranks := 2, workers := 1, "+mpiHyper+")")
	if len(across) != len(local) || len(local) != 4 {
		t.Fatalf("%d epochs across ranks, %d locally, want 4", len(across), len(local))
	}
	for e := range local {
		for k := range 2 {
			if d := math.Abs(across[e][k]-local[e][k]) / math.Abs(local[e][k]); !(d <= 1e-9) {
				t.Errorf("epoch %d measure %d: %v across 2 ranks, %v with 2 workers (relative %g)", e+1, k, across[e][k], local[e][k], d)
			}
		}
	}
	epochNotices := 0
	for _, n := range notices {
		if strings.HasPrefix(n, "train_recommender across@1: epoch ") && strings.HasSuffix(n, "; 2 ranks") {
			epochNotices++
		}
	}
	if epochNotices != 4 {
		t.Errorf("%d epoch NOTICEs, want 4: %q", epochNotices, notices)
	}
	var status, params, fpLocal, fpAcross string
	if err := conn.QueryRow(context.Background(), "SELECT status, CAST(hyperparameters AS VARCHAR) FROM mlops.models WHERE name = 'across'").Scan(&status, &params); err != nil {
		t.Fatal(err)
	}
	if status != "ready" || !strings.Contains(params, `"ranks":2`) || !strings.Contains(params, `"Workers":2`) && !strings.Contains(params, `"workers":2`) {
		t.Errorf("model across: status %s, hyperparameters %s; want ready, 2 ranks, 2 workers in all", status, params)
	}
	if err := conn.QueryRow(context.Background(), "SELECT (SELECT fingerprint FROM mlops.models WHERE name = 'local'), (SELECT fingerprint FROM mlops.models WHERE name = 'across')").Scan(&fpLocal, &fpAcross); err != nil {
		t.Fatal(err)
	}
	if fpLocal != fpAcross {
		t.Errorf("fingerprints differ: local %s, across ranks %s", fpLocal, fpAcross)
	}
	if lr, ar := recommended(t, conn, "local", 7, 10), recommended(t, conn, "across", 7, 10); lr != ar {
		t.Errorf("user 7's recommendations: %s from the local model, %s from the one trained across ranks", lr, ar)
	}
	// The ranking objective, whose ranks also compute their items' parts
	// of each user's softmax: its metrics and recommendations.
	ranking := mpiHyper + ", objective := 'ranking', negatives := 20, dropout := 0.3"
	local = epochRows(t, conn, "SELECT epoch, recall_at_10, ndcg_at_10 FROM train_recommender('r', model := 'rlocal', workers := 2, "+ranking+")")
	across = epochRows(t, conn, "SELECT epoch, recall_at_10, ndcg_at_10 FROM train_recommender('r', model := 'racross', ranks := 2, workers := 1, "+ranking+")")
	if len(across) != len(local) || len(local) != 4 {
		t.Fatalf("ranking: %d epochs across ranks, %d locally, want 4", len(across), len(local))
	}
	for e := range local {
		for k := range 2 {
			if a, l := across[e][k], local[e][k]; a != l && !(math.Abs(a-l) <= 1e-9*math.Abs(l)) {
				t.Errorf("ranking: epoch %d measure %d: %v across 2 ranks, %v with 2 workers", e+1, k, a, l)
			}
		}
	}
	if lr, ar := recommended(t, conn, "rlocal", 7, 10), recommended(t, conn, "racross", 7, 10); lr != ar {
		t.Errorf("ranking: user 7's recommendations: %s from the local model, %s from the one trained across ranks", lr, ar)
	}
	if left, _ := os.ReadDir(jobs); len(left) != 0 {
		t.Errorf("the job directory keeps %d entries after runs that succeeded", len(left))
	}
}

// TestRanksRankFailure checks that a rank that fails fails the run with
// its error, and nothing is registered as ready or stored.
func TestRanksRankFailure(t *testing.T) {
	conn := mpiServer(t, failingWorker(t), t.TempDir())
	exec(t, conn, smallRatingsSQL)
	e := errorCode(t, conn, "SELECT * FROM train_recommender('r', model := 'bad', ranks := 2, "+mpiHyper+")")
	if e.Code != "58030" || !strings.Contains(e.Message, "rank 1 breaks on purpose") {
		t.Errorf("error %s %s, want 58030 with rank 1's stderr", e.Code, e.Message)
	}
	var status string
	var artifacts int64
	if err := conn.QueryRow(context.Background(), "SELECT status, (SELECT count(*) FROM mlops.artifacts WHERE name = 'bad') FROM mlops.models WHERE name = 'bad'").Scan(&status, &artifacts); err != nil {
		t.Fatal(err)
	}
	if status != "failed" || artifacts != 0 {
		t.Errorf("model bad: status %s, %d artifacts; want failed and none", status, artifacts)
	}
}

// failingWorker writes a worker whose rank 1 says "rank 1 breaks on
// purpose" on stderr and exits 3, the other ranks running the MPI build of
// mallard, and returns its path.
func failingWorker(t *testing.T) string {
	t.Helper()
	bin, _ := mpiMallard(t)
	worker := filepath.Join(t.TempDir(), "worker.sh")
	script := "#!/bin/sh\nif [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then echo 'rank 1 breaks on purpose' >&2; exit 3; fi\nexec " + bin + " \"$@\"\n"
	if err := os.WriteFile(worker, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return worker
}

// TestRanksCancel checks that canceling the statement, by a CancelRequest
// or its statement_timeout, ends the MPI job: mpirun and its ranks are
// gone soon after, and the run is not registered as ready. Canceled after
// its third epoch, the run keeps rank 0's checkpoint (checkpoint_every :=
// 2) as a local run keeps its own, and the version serves from it.
func TestRanksCancel(t *testing.T) {
	for _, how := range []string{"CancelRequest", "statement_timeout"} {
		t.Run(how, func(t *testing.T) {
			jobs := t.TempDir()
			conn := mpiServer(t, "", jobs)
			exec(t, conn, smallRatingsSQL)
			if how == "statement_timeout" {
				exec(t, conn, "SET statement_timeout = '4s'")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rows, err := conn.Query(ctx, "SELECT epoch FROM train_recommender('r', model := 'long', ranks := 2, hidden := [16], epochs := 100000, batch_size := 16, checkpoint_every := 2)")
			if err != nil {
				t.Fatal(err)
			}
			seen := 0
			for seen < 3 && rows.Next() {
				seen++
			}
			if seen == 0 {
				t.Fatalf("no epoch before cancel: %v", rows.Err())
			}
			if len(testserver.ProcessesUnder(jobs)) == 0 {
				t.Fatal("no process of the job runs while it trains")
			}
			if how == "CancelRequest" {
				cancel()
			}
			for rows.Next() {
			}
			rows.Close()
			var pgErr *pgconn.PgError
			if err := rows.Err(); err == nil || errors.As(err, &pgErr) && pgErr.Code != "57014" || how == "statement_timeout" && pgErr == nil {
				t.Errorf("canceled run ended with %v, want 57014", err)
			}
			deadline := time.Now().Add(15 * time.Second)
			for len(testserver.ProcessesUnder(jobs)) > 0 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			if left := testserver.ProcessesUnder(jobs); len(left) > 0 {
				t.Errorf("processes of the job still run after cancel: %q", left)
			}
			other := connect(t, conn.Config().Host+":"+fmt.Sprint(conn.Config().Port), pgx.QueryExecModeSimpleProtocol)
			// The client may read the error (pgx, its context canceled, even
			// without the server's) before the server has ended the run.
			var status string
			for {
				if err := other.QueryRow(context.Background(), "SELECT status FROM mlops.models WHERE name = 'long'").Scan(&status); err != nil {
					t.Fatal(err)
				}
				if left, _ := os.ReadDir(jobs); status != "training" && len(left) == 0 || time.Now().After(deadline) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if status == "ready" || status == "training" {
				t.Errorf("canceled run's model is %s", status)
			}
			if how == "CancelRequest" {
				var checkpoint, served int
				if err := other.QueryRow(context.Background(), "SELECT coalesce(checkpoint_epoch, -1) FROM mlops.models WHERE name = 'long'").Scan(&checkpoint); err != nil {
					t.Fatal(err)
				}
				if checkpoint < 2 || checkpoint%2 != 0 {
					t.Errorf("canceled after %d epochs, the run's checkpoint is of epoch %d; want an even epoch from 2", seen, checkpoint)
				} else if err := other.QueryRow(context.Background(), "SELECT count(*) FROM recommend('long@1', user_id := 7, k := 5)").Scan(&served); err != nil || served != 5 {
					t.Errorf("recommend from the canceled run's checkpoint: %d rows, %v; want 5", served, err)
				}
			}
			if left, _ := os.ReadDir(jobs); len(left) != 0 {
				t.Errorf("the job directory keeps %d entries after a canceled run", len(left))
			}
		})
	}
}

// TestRanksTrainGAT checks that train_gat with ranks := 2 streams the loss
// curve of a local run with workers := 2 (to 1e-9 relative) and registers
// a ready model with the same data fingerprint.
func TestRanksTrainGAT(t *testing.T) {
	jobs := t.TempDir()
	conn := mpiServer(t, "", jobs)
	scaledUnemployment(t, conn)
	const hyper = "epochs := 5, hidden := [8, 8], seed := 3, scaler := 'u'"
	local := epochRows(t, conn, "SELECT epoch, train_mse, test_mse FROM train_gat('uw', model := 'gl', workers := 2, "+hyper+")")
	across := epochRows(t, conn, "SELECT epoch, train_mse, test_mse FROM train_gat('uw', model := 'ga', ranks := 2, "+hyper+")")
	if len(across) != len(local) || len(local) != 5 {
		t.Fatalf("%d epochs across ranks, %d locally, want 5", len(across), len(local))
	}
	for e := range local {
		for k := range 2 {
			if d := math.Abs(across[e][k]-local[e][k]) / math.Abs(local[e][k]); !(d <= 1e-9) {
				t.Errorf("epoch %d measure %d: %v across 2 ranks, %v with 2 workers (relative %g)", e+1, k, across[e][k], local[e][k], d)
			}
		}
	}
	var status string
	var same bool
	if err := conn.QueryRow(context.Background(), `SELECT status, fingerprint = (SELECT fingerprint FROM mlops.models WHERE name = 'gl')
		FROM mlops.models WHERE name = 'ga'`).Scan(&status, &same); err != nil {
		t.Fatal(err)
	}
	if status != "ready" || !same {
		t.Errorf("model ga: status %s, same fingerprint as the local run's %v; want ready and true", status, same)
	}
	var lf, af float64
	if err := conn.QueryRow(context.Background(), "SELECT sum(prediction) FROM forecast('gl', steps := 3)").Scan(&lf); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(context.Background(), "SELECT sum(prediction) FROM forecast('ga', steps := 3)").Scan(&af); err != nil {
		t.Fatal(err)
	}
	if math.Abs(lf-af) > 1e-9*math.Abs(lf) {
		t.Errorf("forecasts differ: %v from the local model, %v from the one trained across ranks", lf, af)
	}
}

// TestRanksUnreachableHost checks that a hostfile naming a host mpirun
// cannot reach fails the run with mpirun's error (58030), records the
// version and the run failed, and stores, deploys and serves nothing.
func TestRanksUnreachableHost(t *testing.T) {
	bin, version := mpiMallard(t)
	hostfile := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(hostfile, []byte("nohost.invalid slots=2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	addr := startServerWith(t, server.Config{Version: version, MPI: training.MPI{Worker: bin, JobDir: t.TempDir(), Hostfile: hostfile}})
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, smallRatingsSQL)
	e := errorCode(t, conn, "SELECT * FROM train_recommender('r', model := 'far', ranks := 2, "+mpiHyper+")")
	if e.Code != "58030" || !strings.Contains(e.Message, "mpirun's output ends") || !strings.Contains(e.Message, "nohost") {
		t.Errorf("error %s %s, want 58030 with mpirun's output naming the host", e.Code, e.Message)
	}
	var status, runStatus, runError string
	var artifacts, deployments int64
	if err := conn.QueryRow(context.Background(), `SELECT m.status, r.status, r.error,
		(SELECT count(*) FROM mlops.artifacts WHERE name = 'far'), (SELECT count(*) FROM mlops.deployments WHERE name = 'far')
		FROM mlops.models m JOIN mlops.training_runs r USING (run_id) WHERE m.name = 'far'`).Scan(&status, &runStatus, &runError, &artifacts, &deployments); err != nil {
		t.Fatal(err)
	}
	if status != "failed" || runStatus != "failed" || !strings.Contains(runError, "nohost") || artifacts != 0 || deployments != 0 {
		t.Errorf("model far: status %s, run %s (%q), %d artifacts, %d deployments; want failed, failed with mpirun's error, none, none",
			status, runStatus, runError, artifacts, deployments)
	}
	if e := errorCode(t, conn, "SELECT * FROM recommend('far', user_id := 7, k := 3)"); e.Code == "" {
		t.Errorf("recommend serves the failed model far")
	}
}

// TestRanksLauncher checks a run started by a --launcher template rather
// than by --mpirun (which names no mpirun here): the template, itself
// calling mpirun, runs the ranks, and the run streams the loss curve of a
// local run with workers := 2 (to 1e-9 relative), a NOTICE per epoch, and
// registers a ready model.
func TestRanksLauncher(t *testing.T) {
	bin, version := mpiMallard(t)
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	t.Setenv("OMPI_MCA_rmaps_base_oversubscribe", "1")
	launcher := "exec mpirun -np {ranks} --bind-to none {worker} train-worker --job {job}"
	addr := startServerWith(t, server.Config{Version: version,
		MPI: training.MPI{Mpirun: "/nonexistent/mpirun", Launcher: launcher, Worker: bin, JobDir: t.TempDir()}})
	var notices []string
	conn := connectWithNotices(t, addr, pgx.QueryExecModeSimpleProtocol, &notices)
	exec(t, conn, smallRatingsSQL)
	local := epochRows(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'local', workers := 2, "+mpiHyper+")")
	notices = nil
	across := epochRows(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'launched', ranks := 2, "+mpiHyper+")")
	if len(across) != len(local) || len(local) != 4 {
		t.Fatalf("%d epochs launched, %d locally, want 4", len(across), len(local))
	}
	for e := range local {
		for k := range 2 {
			if d := math.Abs(across[e][k]-local[e][k]) / math.Abs(local[e][k]); !(d <= 1e-9) {
				t.Errorf("epoch %d measure %d: %v launched, %v with 2 workers (relative %g)", e+1, k, across[e][k], local[e][k], d)
			}
		}
	}
	epochNotices := 0
	for _, n := range notices {
		if strings.HasPrefix(n, "train_recommender launched@1: epoch ") && strings.HasSuffix(n, "; 2 ranks") {
			epochNotices++
		}
	}
	if epochNotices != 4 {
		t.Errorf("%d epoch NOTICEs, want 4: %q", epochNotices, notices)
	}
	var status string
	if err := conn.QueryRow(context.Background(), "SELECT status FROM mlops.models WHERE name = 'launched'").Scan(&status); err != nil {
		t.Fatal(err)
	}
	if status != "ready" {
		t.Errorf("model launched: status %s, want ready", status)
	}
}

// TestRanksAverageDuplicates checks that a run across ranks trains on the
// ratings this server read, duplicates averaged and users held out as in
// a local run: the ranks read the ratings the server split and exported,
// and the curve is a local run's with as many workers, to 1e-9 relative.
func TestRanksAverageDuplicates(t *testing.T) {
	conn := mpiServer(t, "", t.TempDir())
	exec(t, conn, smallRatingsSQL)
	exec(t, conn, "INSERT INTO r SELECT user_id, item_id, 6 - rating FROM r WHERE (user_id + item_id) % 4 = 0")
	const hyper = ", duplicates := 'avg', hold_out_users := 0.1, workers := 1, hidden := [16], epochs := 3, batch_size := 16, seed := 5)"
	local := epochRows(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'local', workers := 2"+strings.Replace(hyper, ", workers := 1", "", 1))
	across := epochRows(t, conn, "SELECT epoch, train_rmse, test_rmse FROM train_recommender('r', model := 'across', ranks := 2"+hyper)
	if len(across) != len(local) || len(local) != 3 {
		t.Fatalf("%d epochs across ranks, %d locally, want 3", len(across), len(local))
	}
	for e := range local {
		for k := range 2 {
			if d := math.Abs(across[e][k]-local[e][k]) / math.Abs(local[e][k]); !(d <= 1e-9) {
				t.Errorf("epoch %d measure %d: %v across 2 ranks, %v with 2 workers (relative %g)", e+1, k, across[e][k], local[e][k], d)
			}
		}
	}
	var lt, at float64
	if err := conn.QueryRow(context.Background(), `SELECT (SELECT test_loss FROM mlops.models WHERE name = 'local'),
		(SELECT test_loss FROM mlops.models WHERE name = 'across' AND status = 'ready')`).Scan(&lt, &at); err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(lt-at) <= 1e-9*math.Abs(lt)) {
		t.Errorf("test loss %v across ranks, %v locally", at, lt)
	}
}

// TestRanksCheckpointResume checks checkpoints of a train_gat run across
// ranks and resume with ranks: the run stores rank 0's checkpoints as a
// local run stores its own (every checkpoint_every epochs), a canceled
// run keeps its last, and resume := with ranks := 2 continues from it
// the curve that a local resume with as many workers trains, to 1e-9.
func TestRanksCheckpointResume(t *testing.T) {
	conn := mpiServer(t, "", t.TempDir())
	scaledUnemployment(t, conn)
	conn, checkpoint := cancelAfter(t, conn, "SELECT epoch FROM train_gat('uw', model := 'g', ranks := 2, epochs := 1000000, hidden := [4, 4], checkpoint_every := 2, patience := 0, scaler := 'u', seed := 3)", "g", 5)
	epochs := checkpoint + 3
	across := trainingCurve(t, conn, fmt.Sprintf("SELECT epoch, train_mse, test_mse FROM train_gat('uw', resume := 'g@1', ranks := 2, epochs := %d)", epochs))
	local := trainingCurve(t, conn, fmt.Sprintf("SELECT epoch, train_mse, test_mse FROM train_gat('uw', resume := 'g@1', workers := 2, epochs := %d)", epochs))
	if len(across) != 3 || len(local) != 3 || across[0][0] != float64(checkpoint+1) {
		t.Fatalf("resumed across ranks: %v; locally: %v; want epochs %d to %d", across, local, checkpoint+1, epochs)
	}
	for e := range local {
		for k := 1; k < 3; k++ {
			if d := math.Abs(across[e][k]-local[e][k]) / math.Abs(local[e][k]); !(d <= 1e-9) || across[e][0] != local[e][0] {
				t.Errorf("epoch %v measure %d: %v resumed across 2 ranks, %v with 2 workers (relative %g)", local[e][0], k, across[e][k], local[e][k], d)
			}
		}
	}
	var status, resumedFrom string
	if err := conn.QueryRow(context.Background(), `SELECT m.status, r.resumed_from FROM mlops.models m JOIN mlops.training_runs r USING (run_id)
		WHERE m.name = 'g' AND m.version = 2`).Scan(&status, &resumedFrom); err != nil {
		t.Fatal(err)
	}
	if status != "ready" || resumedFrom != "g@1" {
		t.Errorf("g@2: status %s, resumed from %q; want ready, from g@1", status, resumedFrom)
	}
}

// cancelAfter runs query, a training statement of model's first version
// whose first column is the epoch, cancels it once it has streamed epoch
// last, waits for the run to end, and checks that it ended canceled with
// a checkpoint of an even epoch from 4 (checkpoint_every := 2). It
// returns a new connection to the server and the checkpoint's epoch.
func cancelAfter(t *testing.T, conn *pgx.Conn, query, model string, last int64) (*pgx.Conn, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := conn.Query(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var epoch int64
		if err := rows.Scan(&epoch); err != nil {
			t.Fatal(err)
		}
		if epoch == last {
			cancel()
		}
	}
	rows.Close()
	conn = connect(t, conn.Config().Host+":"+fmt.Sprint(conn.Config().Port), pgx.QueryExecModeSimpleProtocol)
	var status string
	var checkpoint int
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) { // the cancel ends the run soon after
		if err := conn.QueryRow(context.Background(), "SELECT status, coalesce(checkpoint_epoch, -1) FROM mlops.models WHERE name = $1 AND version = 1", model).Scan(&status, &checkpoint); err != nil {
			t.Fatal(err)
		}
		if status != "training" || time.Now().After(deadline) {
			break
		}
	}
	if status != "canceled" {
		var runErr string
		conn.QueryRow(context.Background(), "SELECT coalesce(error, '') FROM mlops.training_runs WHERE model = $1", model).Scan(&runErr)
		t.Logf("the run's error: %s", runErr)
	}
	if status != "canceled" || checkpoint < 4 || checkpoint%2 != 0 {
		t.Fatalf("%s@1 after cancel: status %s, checkpoint epoch %d; want canceled, an even epoch from 4", model, status, checkpoint)
	}
	return conn, checkpoint
}
