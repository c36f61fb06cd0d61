//go:build duckdb_arrow

package functions_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/server"
)

// longTraining is a train_gat call that runs until it is canceled: patience
// := 0 turns early stopping off, so no machine is quick enough to end it.
const longTraining = "SELECT * FROM train_gat('uw', model := 'g', epochs := 1000000, hidden := [4, 4], patience := 0)"

// startTraining runs query on conn in the background and returns its error
// when it ends.
func startTraining(conn *pgx.Conn, ctx context.Context, query string) <-chan error {
	done := make(chan error, 1)
	go func() {
		rows, err := conn.Query(ctx, query)
		if err == nil {
			for rows.Next() {
			}
			rows.Close()
			err = rows.Err()
		}
		done <- err
	}()
	return done
}

// waitFor polls query on conn until it returns want, or fails the test.
func waitFor(t *testing.T, conn *pgx.Conn, query string, want any) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var got any
	for time.Now().Before(deadline) {
		if err := conn.QueryRow(context.Background(), query).Scan(&got); err == nil && fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: got %v, want %v", query, got, want)
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != code {
		t.Fatalf("error %v, want SQLSTATE %s", err, code)
	}
}

// failing is a query and the error it must fail with.
type failing struct{ query, code, message string }

// expectErrors runs each query and checks its SQLSTATE and message.
func expectErrors(t *testing.T, conn *pgx.Conn, cases []failing) {
	t.Helper()
	for _, tt := range cases {
		e := errorCode(t, conn, tt.query)
		if e.Code != tt.code || !strings.Contains(e.Message, tt.message) {
			t.Errorf("%s: %s %q, want %s containing %q", tt.query, e.Code, e.Message, tt.code, tt.message)
		}
	}
}

func scanOne[T any](t *testing.T, conn *pgx.Conn, query string) T {
	t.Helper()
	var v T
	if err := conn.QueryRow(context.Background(), query).Scan(&v); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return v
}

// scanAll returns query's single column, every row of it.
func scanAll[T any](t *testing.T, conn *pgx.Conn, query string) []T {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[T])
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// TestTrainingMetricsLive reads a run's metrics from a second session while
// the first still trains: each epoch is committed before its row reaches
// the training session.
func TestTrainingMetricsLive(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	rows, err := conn.Query(ctx, "SELECT epoch FROM train_gat('uw', model := 'g', epochs := 12, hidden := [4, 4])")
	if err != nil {
		t.Fatal(err)
	}
	seen := []int64{}
	for rows.Next() {
		var epoch int64
		if err := rows.Scan(&epoch); err != nil {
			t.Fatal(err)
		}
		var n int64
		var status string
		if err := other.QueryRow(ctx, `SELECT count(m.epoch), r.status FROM mlops.training_runs r LEFT JOIN mlops.training_metrics m USING (run_id)
			WHERE r.model = 'g' GROUP BY r.status`).Scan(&n, &status); err != nil {
			t.Fatal(err)
		}
		if n < epoch || status != "training" && epoch < 12 { // training runs at most one epoch ahead of the rows
			t.Fatalf("at epoch %d another session sees %d metrics rows and status %s", epoch, n, status)
		}
		seen = append(seen, n)
	}
	if err := rows.Err(); err != nil || len(seen) != 12 || seen[0] >= seen[11] {
		t.Fatalf("metrics counts seen %v (%v)", seen, err)
	}
	row := other.QueryRow(ctx, `SELECT r.status, r.epochs_done, r.best_epoch, m.status, m.deployed, m.rows, m.entities, m.artifact_size > 0,
		m.artifact_checksum = a.checksum, m.mallard_version, m.hyperparameters->>'epochs'
		FROM mlops.training_runs r JOIN mlops.models m ON m.name = r.model AND m.version = r.version JOIN mlops.artifacts a ON a.name = m.name AND a.version = m.version`)
	var runStatus, modelStatus, version, epochs string
	var done, best, nrows, entities int
	var deployed, sized, matches bool
	if err := row.Scan(&runStatus, &done, &best, &modelStatus, &deployed, &nrows, &entities, &sized, &matches, &version, &epochs); err != nil {
		t.Fatal(err)
	}
	if runStatus != "succeeded" || done != 12 || best < 1 || modelStatus != "ready" || !deployed || nrows != 122 || entities != 14 ||
		!sized || !matches || version == "" || epochs != "12" {
		t.Errorf("after training: run %s done %d best %d, model %s deployed %v rows %d entities %d sized %v checksum %v version %q epochs %q",
			runStatus, done, best, modelStatus, deployed, nrows, entities, sized, matches, version, epochs)
	}
}

// TestCancelByFunction stops a run from another session: the training
// statement fails with 57014, the run and the version are canceled, and the
// last checkpoint still forecasts.
func TestCancelByFunction(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	cancelFirstRun(t, conn, other, longTraining, 1)
	if n := scanOne[int64](t, other, "SELECT count(*) FROM forecast('g@1')"); n != 14 {
		t.Errorf("the checkpoint forecasts %d rows, want 14", n)
	}
	wantCode(t, errorCode(t, other, "SELECT * FROM evaluate('g@1')"), "55000")
	wantCode(t, errorCode(t, other, "SELECT * FROM forecast('g')"), "55000") // nothing deployed
	var notice string
	cfg, _ := pgx.ParseConfig(testserver.ConnString(addr))
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notice = n.Message }
	third, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close(ctx)
	if scanOne[bool](t, third, "SELECT mlops.cancel(1)") || !strings.Contains(notice, "run 1 is canceled") {
		t.Errorf("cancel of a canceled run: want false and a notice, got notice %q", notice)
	}
	e := errorCode(t, other, "SELECT mlops.cancel(99)")
	if e.Code != "42704" || !strings.Contains(e.Message, "training run 99 does not exist") {
		t.Errorf("cancel(99): %s %s", e.Code, e.Message)
	}
	e = errorCode(t, other, "SELECT mlops.cancel('x')")
	if e.Code != "42883" || !strings.Contains(e.Message, "run_id must be an integer") {
		t.Errorf("cancel('x'): %s %s", e.Code, e.Message)
	}
}

// TestCancelRequest stops a run with a Postgres CancelRequest (pgx sends
// one when the query's context ends).
func TestCancelRequest(t *testing.T) {
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	ctx, cancel := context.WithCancel(context.Background())
	done := startTraining(conn, ctx, longTraining)
	waitFor(t, other, "SELECT count(*) >= 2 FROM mlops.training_metrics WHERE run_id = 1", true)
	cancel()
	<-done
	waitFor(t, other, "SELECT status FROM mlops.training_runs WHERE run_id = 1", "canceled")
	if s := scanOne[string](t, other, "SELECT status FROM mlops.models WHERE name = 'g'"); s != "canceled" {
		t.Errorf("model status %s after a cancel request", s)
	}

	// A closed connection stops its training too.
	closing := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	startTraining(closing, context.Background(), strings.ReplaceAll(longTraining, "'g'", "'h'"))
	waitFor(t, other, "SELECT count(*) >= 2 FROM mlops.training_metrics WHERE run_id = 2", true)
	if err := closing.PgConn().Conn().Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, other, "SELECT status FROM mlops.training_runs WHERE run_id = 2", "canceled")

	// A statement canceled by the server (statement_timeout) reports its
	// cancel once the run has ended: the next statement of any session
	// sees the run canceled, never still training. (pgx gives up on a
	// query whose context ends without waiting for the server's answer.)
	timed := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	exec(t, timed, "SET statement_timeout = '1500ms'")
	wantCode(t, <-startTraining(timed, context.Background(), strings.ReplaceAll(longTraining, "'g'", "'k'")), "57014")
	if s := scanOne[string](t, other, "SELECT status FROM mlops.training_runs WHERE model = 'k'"); s != "canceled" {
		t.Errorf("run status %s once the statement_timeout is reported", s)
	}
}

// TestTrainingQueue runs one training at a time: a second waits as queued
// and can be canceled there, leaving no model version.
func TestTrainingQueue(t *testing.T) {
	addr := startServerWith(t, server.Config{MaxTrainings: 1})
	ctx := context.Background()
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	second := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	first := startTraining(conn, ctx, longTraining)
	waitFor(t, other, "SELECT status FROM mlops.training_runs WHERE run_id = 1", "training")
	queued := startTraining(second, ctx, strings.ReplaceAll(longTraining, "'g'", "'h'"))
	waitFor(t, other, "SELECT status FROM mlops.training_runs WHERE run_id = 2", "queued")
	if !scanOne[bool](t, other, "SELECT mlops.cancel(run_id) FROM mlops.training_runs WHERE status = 'queued'") {
		t.Fatal("cancel of the queued run is false")
	}
	wantCode(t, <-queued, "57014")
	if s := scanOne[string](t, other, "SELECT status || ' ' || (version IS NULL) FROM mlops.training_runs WHERE run_id = 2"); s != "canceled true" {
		t.Errorf("queued run after cancel: %s", s)
	}
	if n := scanOne[int64](t, other, "SELECT count(*) FROM mlops.models WHERE name = 'h'"); n != 0 {
		t.Errorf("a run canceled in the queue left %d model versions", n)
	}
	exec(t, other, "SELECT mlops.cancel(1)")
	wantCode(t, <-first, "57014")
}

// TestDeployRollbackDrop walks deployments through their operations.
func TestDeployRollbackDrop(t *testing.T) {
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	train := func(opts string) {
		exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 3, hidden := [4, 4]"+opts+")")
	}
	deployedVersion := func() int32 {
		return scanOne[int32](t, conn, "SELECT coalesce(max(version) FILTER (WHERE deployed), 0) FROM mlops.models WHERE name = 'g'")
	}
	step := func(query string, want any, deployed int32) {
		t.Helper()
		var got any
		if err := conn.QueryRow(context.Background(), query).Scan(&got); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: %v (%v), want %v", query, got, err, want)
		}
		if d := deployedVersion(); d != deployed {
			t.Fatalf("after %s version %d is deployed, want %d", query, d, deployed)
		}
	}
	train("")                         // 1: the first version deploys itself
	train(", deploy := 'never'")      // 2
	train(", deploy := 'always'")     // 3
	train(", seed := 1, epochs := 1") // 4: auto, deployed only if better than 3
	loss3, loss4 := scanOne[float64](t, conn, "SELECT test_loss FROM mlops.models WHERE name = 'g' AND version = 3"),
		scanOne[float64](t, conn, "SELECT test_loss FROM mlops.models WHERE name = 'g' AND version = 4")
	want := int32(3)
	if loss4 < loss3 {
		want = 4
	}
	if d := deployedVersion(); d != want {
		t.Fatalf("auto deploy: version %d deployed with test losses %v (3) and %v (4)", d, loss3, loss4)
	}
	step("SELECT mlops.deploy('g', 2)", "g@2", 2)
	step("SELECT mlops.rollback('g')", "g@"+fmt.Sprint(want), want)
	if want == 4 {
		step("SELECT mlops.rollback('g')", "g@3", 3)
	}
	step("SELECT mlops.rollback('g')", "g@1", 1)
	if e := errorCode(t, conn, "SELECT mlops.rollback('g')"); e.Code != "55000" || e.Hint != "g@1 is deployed; mlops.deploy('g', version) deploys another." {
		t.Errorf("rollback past the first: %s %q, hint %q", e.Code, e.Message, e.Hint)
	}
	step("SELECT mlops.deploy('g@3')", "g@3", 3)
	step("SELECT mlops.drop('g', 3)", 1, 1) // dropping the deployed version falls back to the one before
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM mlops.artifacts WHERE name = 'g' AND version = 3"); n != 0 {
		t.Errorf("drop left the artifact of version 3")
	}
	expectErrors(t, conn, []failing{
		{"SELECT mlops.deploy('g', 9)", "42704", "model 'g' has no version 9"},
		{"SELECT mlops.deploy('nope', 1)", "42704", "model 'nope' does not exist"},
		{"SELECT mlops.deploy('g')", "42883", "argument version is required"},
		{"SELECT mlops.deploy('g@2', 3)", "22023", "name different versions"},
		{"SELECT mlops.deploy('g@x')", "22023", "must be a positive integer"},
		{"SELECT mlops.drop('g', 3)", "42704", "has no version 3"},
		{"SELECT mlops.drop('nope')", "42704", "does not exist"},
		{"SELECT mlops.rollback('nope')", "42704", "does not exist"},
		{"SELECT mlops.drop('g', 0)", "22023", "version := 0 is out of range"},
		{"SELECT mlops.drop('g', 1, 2)", "42883", "at most 2 arguments"},
		{"SELECT * FROM forecast('g@3')", "42704", "has no version 3"},
	})
	for query, hint := range map[string]string{ // the registry's errors, worded for the function
		"SELECT mlops.deploy('g', 9)":   "Its versions are 1, 2, 4.",
		"SELECT mlops.drop('nope')":     "SELECT DISTINCT name FROM mlops.models lists the models.",
		"SELECT * FROM forecast('g@3')": "Its versions are 1, 2, 4.",
	} {
		if e := errorCode(t, conn, query); e.Hint != hint {
			t.Errorf("%s: hint %q, want %q", query, e.Hint, hint)
		}
	}
	step("SELECT mlops.drop('g')", 3, 0)
	if n := scanOne[int64](t, conn, "SELECT (SELECT count(*) FROM mlops.models) + (SELECT count(*) FROM mlops.artifacts)"); n != 0 {
		t.Errorf("%d rows left after dropping every version", n)
	}
	wantCode(t, errorCode(t, conn, "SELECT * FROM forecast('g')"), "42704")
}

// TestResumeAndReproduce continues a version from its checkpoint, refuses
// changed data unless allowed, and trains identical weights from identical
// runs.
func TestResumeAndReproduce(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 6, hidden := [4, 4], seed := 5)",
		"SELECT count(*) FROM train_gat('uw', model := 'g', epochs := 6, hidden := [4, 4], seed := 5)")
	if s := scanOne[string](t, conn, `SELECT count(DISTINCT fingerprint) || ' ' || count(DISTINCT artifact_checksum) || ' ' || count(*)
		FROM mlops.models WHERE name = 'g'`); s != "1 1 2" {
		t.Errorf("two identical runs: distinct fingerprints, checksums, versions = %s, want 1 1 2", s)
	}
	var epochs []int64
	rows, _ := conn.Query(context.Background(), "SELECT epoch FROM train_gat('uw', resume := 'g@1', epochs := 9)")
	for rows.Next() {
		var e int64
		_ = rows.Scan(&e)
		epochs = append(epochs, e)
	}
	if err := rows.Err(); err != nil || fmt.Sprint(epochs) != "[7 8 9]" {
		t.Fatalf("resume: epochs %v (%v), want [7 8 9]", epochs, err)
	}
	if s := scanOne[string](t, conn, "SELECT resumed_from FROM mlops.training_runs WHERE version = 3"); s != "g@1" {
		t.Errorf("resumed_from %q", s)
	}
	// The same columns in another order: resume matches them by name, and
	// the data is the same data.
	exec(t, conn, "CREATE VIEW uw_reordered AS SELECT wholesale_and_retail_trade, * EXCLUDE (wholesale_and_retail_trade) FROM uw",
		"CREATE VIEW uw_fewer AS SELECT * EXCLUDE (agriculture) FROM uw",
		"SELECT count(*) FROM train_gat('uw_reordered', resume := 'g@1', epochs := 9)")
	if n := scanOne[int64](t, conn, "SELECT count(DISTINCT fingerprint) FROM mlops.models WHERE name = 'g' AND version IN (1, 4)"); n != 1 {
		t.Errorf("resumed on the columns reordered: %d fingerprints, want the original's", n)
	}
	exec(t, conn, "CREATE TABLE uw2 AS SELECT * FROM uw", "UPDATE uw2 SET agriculture = agriculture + 0.5 WHERE year = 2005 AND month = 1")
	expectErrors(t, conn, []failing{
		{"SELECT * FROM train_gat('uw_fewer', resume := 'g@1', epochs := 9)", "22023", "entity columns differ"},
		{"SELECT * FROM train_gat('uw2', resume := 'g@1', epochs := 9)", "22023", "data differs"},
		{"SELECT * FROM train_gat('uw', resume := 'g@1', epochs := 9, window := 8)", "22023", "window := 8 differs"},
		{"SELECT * FROM train_gat('uw', resume := 'g@1', epochs := 6)", "22023", "epochs must be more"},
		{"SELECT * FROM train_gat('uw', resume := 'nope')", "42704", "no version with saved weights"},
		{"SELECT * FROM train_gat('uw', resume := 'g@7')", "42704", "has no version 7"},
	})
	exec(t, conn, "SELECT count(*) FROM train_gat('uw2', resume := 'g@1', epochs := 9, allow_data_change := true)")
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM mlops.models WHERE name = 'g' AND status = 'ready'"); n != 5 {
		t.Errorf("%d ready versions, want 5", n)
	}
}

// TestFailedTraining leaves a failed version without weights, not deployed.
func TestFailedTraining(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	e := errorCode(t, conn, "SELECT * FROM train_gat('uw', model := 'g', epochs := 50, lr := 10, momentum := 0.99, target := 'level', clip := 0, validation_fraction := 0, patience := 0)")
	if e.Code != "22000" || !strings.Contains(e.Message, "training diverged") {
		t.Fatalf("divergent training: %s %q", e.Code, e.Message)
	}
	if s := scanOne[string](t, conn, `SELECT r.status || ' ' || m.status || ' ' || m.deployed || ' ' || (m.artifact_checksum IS NULL) || ' ' ||
		(SELECT count(*) FROM mlops.artifacts) FROM mlops.training_runs r JOIN mlops.models m ON m.name = r.model`); s != "failed failed false true 0" {
		t.Errorf("after a failed run: %s", s)
	}
	wantCode(t, errorCode(t, conn, "SELECT * FROM forecast('g@1')"), "55000")
}

// cancelFirstRun starts query, the server's first training run, on conn,
// cancels it with mlops.cancel(1) from other once three epochs are
// recorded, and checks that the statement fails with 57014 and that the
// run and its version are canceled with a checkpoint of at least epoch
// minCheckpoint, which it returns.
// cancelRunOne cancels run 1 with mlops.cancel from other and waits for
// the training statement, whose result done delivers, to end with 57014.
func cancelRunOne(t *testing.T, other *pgx.Conn, done <-chan error) {
	t.Helper()
	if !scanOne[bool](t, other, "SELECT mlops.cancel(1)") {
		t.Fatal("mlops.cancel(1) is false for a training run")
	}
	select {
	case err := <-done:
		wantCode(t, err, "57014")
	case <-time.After(30 * time.Second):
		t.Fatal("training did not stop after mlops.cancel")
	}
}

func cancelFirstRun(t *testing.T, conn, other *pgx.Conn, query string, minCheckpoint int) int {
	t.Helper()
	ctx := context.Background()
	done := startTraining(conn, ctx, query)
	waitFor(t, other, "SELECT count(*) >= 3 FROM mlops.training_metrics WHERE run_id = 1", true)
	cancelRunOne(t, other, done)
	var run, model string
	var checkpoint int
	if err := other.QueryRow(ctx, `SELECT r.status, m.status, m.checkpoint_epoch FROM mlops.training_runs r
		JOIN mlops.models m ON m.name = r.model AND m.version = r.version`).Scan(&run, &model, &checkpoint); err != nil {
		t.Fatal(err)
	}
	if run != "canceled" || model != "canceled" || checkpoint < minCheckpoint {
		t.Errorf("after cancel: run %s, model %s, checkpoint epoch %d; want canceled, canceled, >= %d", run, model, checkpoint, minCheckpoint)
	}
	return checkpoint
}
