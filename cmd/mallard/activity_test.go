package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// longStatement runs until canceled.
const longStatement = "SELECT count(*) FROM range(10000000000000) a"

// startLong runs longStatement on conn and returns where its error arrives.
func startLong(conn *pgx.Conn) <-chan error {
	errc := make(chan error, 1)
	go func() {
		_, err := conn.Exec(context.Background(), longStatement)
		errc <- err
	}()
	return errc
}

// activityRow is a session's row of pg_stat_activity as a caller sees it.
type activityRow struct {
	user, app, state, query *string
	clientAddr              *string
	clientPort              *int32
	backendStart, xactStart *time.Time
	queryStart, stateChange *time.Time
	backendType             string
}

func activity(t *testing.T, conn *pgx.Conn) map[uint32]activityRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), `SELECT pid, usename, application_name, client_addr, client_port, backend_start,
		xact_start, query_start, state_change, state, query, backend_type FROM pg_stat_activity`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	wantOIDs := []uint32{23, 19, 25, 25, 23, 1184, 1184, 1184, 1184, 25, 25, 25}
	for i, f := range rows.FieldDescriptions() {
		if f.DataTypeOID != wantOIDs[i] {
			t.Errorf("column %s has type OID %d, want %d", f.Name, f.DataTypeOID, wantOIDs[i])
		}
	}
	out := map[uint32]activityRow{}
	for rows.Next() {
		var pid int32
		var r activityRow
		if err := rows.Scan(&pid, &r.user, &r.app, &r.clientAddr, &r.clientPort, &r.backendStart, &r.xactStart,
			&r.queryStart, &r.stateChange, &r.state, &r.query, &r.backendType); err != nil {
			t.Fatal(err)
		}
		out[uint32(pid)] = r
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// waitActive waits until pid runs longStatement, as conn sees it.
func waitActive(t *testing.T, conn *pgx.Conn, pid uint32) activityRow {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r, ok := activity(t, conn)[pid]
		if ok && r.state != nil && *r.state == "active" && r.query != nil && *r.query == longStatement {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d never showed as running the long statement: %+v", pid, r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func str(p *string) string {
	if p == nil {
		return "NULL"
	}
	return *p
}

// TestPgStatActivity lists every session of a real server through pgx:
// one running a statement, one idle in a transaction, one idle in an
// aborted one, and the caller; the read-only role sees the owner's
// sessions without their query.
func TestPgStatActivity(t *testing.T) {
	s := serveForTest(t, "--password", "pw", "--reader-password", "rpw")
	bg := context.Background()
	busy := s.connect(t, "mallard", "pw", "busy", nil)
	inTx := s.connect(t, "mallard", "pw", "in_tx", nil)
	aborted := s.connect(t, "mallard", "pw", "aborted", nil)
	me := s.connect(t, "mallard", "pw", "watcher", nil)
	reader := s.connect(t, "reader", "rpw", "reader_app", nil)
	errc := startLong(busy)
	for _, q := range []string{"BEGIN", "SELECT 1"} {
		if _, err := inTx.Exec(bg, q); err != nil {
			t.Fatal(err)
		}
	}
	aborted.Exec(bg, "BEGIN")
	if _, err := aborted.Exec(bg, "SELECT 1/0"); err == nil {
		t.Fatal("1/0 succeeded")
	}
	b := waitActive(t, me, busy.PgConn().PID())
	// The long statement started before this session saw it run (it may
	// start after the other sessions' statements above, on a busy host).
	seen := time.Now()
	rows := activity(t, me)
	if len(rows) != 5 {
		t.Errorf("pg_stat_activity has %d rows, want the 5 sessions", len(rows))
	}
	if str(b.app) != "busy" || str(b.user) != "mallard" || str(b.clientAddr) != "127.0.0.1" || b.clientPort == nil ||
		b.backendType != "client backend" || b.queryStart == nil || b.queryStart.After(seen) || b.xactStart == nil {
		t.Errorf("busy session: %+v", b)
	}
	tx := rows[inTx.PgConn().PID()]
	if str(tx.state) != "idle in transaction" || str(tx.query) != "SELECT 1" || tx.xactStart == nil || !tx.xactStart.Before(*tx.queryStart) {
		t.Errorf("session in a transaction: state %s, query %s, xact_start %v, query_start %v", str(tx.state), str(tx.query), tx.xactStart, tx.queryStart)
	}
	if ab := rows[aborted.PgConn().PID()]; str(ab.state) != "idle in transaction (aborted)" {
		t.Errorf("aborted session's state = %s", str(ab.state))
	}
	if self := rows[me.PgConn().PID()]; str(self.state) != "active" || !strings.Contains(str(self.query), "FROM pg_stat_activity") {
		t.Errorf("the caller's own row: state %s, query %s", str(self.state), str(self.query))
	}
	var pid int32
	if err := me.QueryRow(bg, "SELECT pg_backend_pid()").Scan(&pid); err != nil || uint32(pid) != me.PgConn().PID() {
		t.Errorf("pg_backend_pid() = %d, %v; want BackendKeyData's %d", pid, err, me.PgConn().PID())
	}
	asReader := activity(t, reader)
	hidden := asReader[busy.PgConn().PID()]
	if str(hidden.query) != "<insufficient privilege>" || hidden.state != nil || hidden.clientAddr != nil || str(hidden.user) != "mallard" {
		t.Errorf("the reader sees the owner's busy session as %s / %s / %s", str(hidden.user), str(hidden.state), str(hidden.query))
	}
	if own := asReader[reader.PgConn().PID()]; str(own.state) != "active" || !strings.Contains(str(own.query), "pg_stat_activity") {
		t.Errorf("the reader's own row: %s / %s", str(own.state), str(own.query))
	}
	busy.PgConn().CancelRequest(bg)
	<-errc
}

// TestCancelAndTerminate signals sessions with pg_cancel_backend and
// pg_terminate_backend through pgx, as Postgres' operators do: the
// canceled statement fails with 57014 and its session lives on; the
// terminated session gets 57P01 and its open transaction is rolled back;
// a terminated training run ends canceled; the read-only role may signal
// its own role's sessions only; bad arguments fail or warn as in Postgres.
func TestCancelAndTerminate(t *testing.T) {
	s := serveForTest(t, "--password", "pw", "--reader-password", "rpw")
	bg := context.Background()
	notices := make(chan string, 8)
	admin := s.connect(t, "mallard", "pw", "admin", notices)
	victim := s.connect(t, "mallard", "pw", "victim", nil)
	signal := func(conn *pgx.Conn, fn string, pid uint32) (*bool, error) {
		var ok *bool
		err := conn.QueryRow(bg, "SELECT "+fn+"($1)", int32(pid)).Scan(&ok)
		return ok, err
	}

	errc := startLong(victim)
	waitActive(t, admin, victim.PgConn().PID())
	if ok, err := signal(admin, "pg_cancel_backend", victim.PgConn().PID()); err != nil || ok == nil || !*ok {
		t.Fatalf("pg_cancel_backend = %v, %v", ok, err)
	}
	var pe *pgconn.PgError
	if err := <-errc; !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("canceled statement: %v, want 57014", err)
	}
	for _, q := range []string{"CREATE TABLE kept (v INTEGER)", "BEGIN", "INSERT INTO kept VALUES (1)"} {
		if _, err := victim.Exec(bg, q); err != nil {
			t.Fatalf("the canceled session cannot go on: %s: %v", q, err)
		}
	}
	if ok, err := signal(admin, "pg_terminate_backend", victim.PgConn().PID()); err != nil || ok == nil || !*ok {
		t.Fatalf("pg_terminate_backend = %v, %v", ok, err)
	}
	if _, err := victim.Exec(bg, "COMMIT"); !errors.As(err, &pe) || pe.Code != "57P01" {
		if err == nil || !strings.Contains(err.Error(), "57P01") {
			t.Fatalf("terminated session: %v, want 57P01", err)
		}
	}
	var n int
	if err := admin.QueryRow(bg, "SELECT count(*) FROM kept").Scan(&n); err != nil || n != 0 {
		t.Errorf("the terminated session's open transaction left %d rows (%v), want it rolled back", n, err)
	}

	// An unknown pid is false with a WARNING; NULL is NULL; text that is
	// no integer fails.
	if ok, err := signal(admin, "pg_cancel_backend", 1); err != nil || ok == nil || *ok {
		t.Errorf("unknown pid: %v, %v; want false", ok, err)
	}
	select {
	case n := <-notices:
		if !strings.HasPrefix(n, "WARNING: PID 1 is not") {
			t.Errorf("notice %q, want a WARNING naming PID 1", n)
		}
	case <-time.After(5 * time.Second):
		t.Error("no WARNING for an unknown pid")
	}
	var null *bool
	if err := admin.QueryRow(bg, "SELECT pg_terminate_backend(NULL)").Scan(&null); err != nil || null != nil {
		t.Errorf("pg_terminate_backend(NULL) = %v, %v; want NULL", null, err)
	}
	if _, err := admin.Exec(bg, "SELECT pg_cancel_backend('twelve')"); !errors.As(err, &pe) || pe.Code != "22P02" {
		t.Errorf("pg_cancel_backend('twelve'): %v, want 22P02", err)
	}

	// The read-only role may not signal the owner's sessions, only its own role's.
	reader := s.connect(t, "reader", "rpw", "reader", nil)
	readerBusy := s.connect(t, "reader", "rpw", "reader_busy", nil)
	owner := s.connect(t, "mallard", "pw", "owner", nil)
	for _, fn := range []string{"pg_cancel_backend", "pg_terminate_backend"} {
		if _, err := signal(reader, fn, owner.PgConn().PID()); !errors.As(err, &pe) || pe.Code != "42501" {
			t.Errorf("reader %s of the owner's session: %v, want 42501", fn, err)
		}
	}
	errc = startLong(readerBusy)
	waitActive(t, admin, readerBusy.PgConn().PID())
	if ok, err := signal(reader, "pg_cancel_backend", readerBusy.PgConn().PID()); err != nil || ok == nil || !*ok {
		t.Errorf("reader cancels its own role's statement: %v, %v", ok, err)
	}
	if err := <-errc; !errors.As(err, &pe) || pe.Code != "57014" {
		t.Errorf("reader's canceled statement: %v, want 57014", err)
	}
	if err := owner.Ping(bg); err != nil {
		t.Errorf("the owner's session did not survive the reader's attempts: %v", err)
	}
}

// TestTerminateTraining ends a session while it trains: the run is
// recorded canceled, and the log says so.
func TestTerminateTraining(t *testing.T) {
	s := serveForTest(t)
	bg := context.Background()
	admin := s.connect(t, "mallard", "", "admin", nil)
	trainer := s.connect(t, "mallard", "", "trainer", nil)
	if _, err := admin.Exec(bg, `CREATE TABLE ratings AS SELECT u AS user_id, i AS item_id, CAST(1 + (u*i) % 5 AS DOUBLE) AS rating
		FROM range(60) a(u), range(40) b(i) WHERE (u + i) % 3 = 0`); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := trainer.Exec(bg, "SELECT count(*) FROM train_recommender('ratings', model := 'endless', epochs := 100000)")
		errc <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var status string
		if err := admin.QueryRow(bg, "SELECT status FROM mlops.training_runs WHERE model = 'endless'").Scan(&status); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			t.Fatal(err)
		}
		if status == "training" {
			break
		}
		select {
		case err := <-errc:
			t.Fatalf("training ended before it was terminated: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never started training (status %q)", status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var ok bool
	if err := admin.QueryRow(bg, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'trainer'").Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend = %v, %v", ok, err)
	}
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "57P01") {
		t.Errorf("training session: %v, want 57P01", err)
	}
	waitFor(t, s.logs, `msg="training run ended"`)
	var status string
	if err := admin.QueryRow(bg, "SELECT status FROM mlops.training_runs WHERE model = 'endless'").Scan(&status); err != nil || status != "canceled" {
		t.Errorf("terminated run's status = %q, %v; want canceled", status, err)
	}
	if !strings.Contains(s.logs.String(), "model=endless version=1 status=canceled") {
		t.Errorf("the log does not record the run canceled:\n%s", s.logs.String())
	}
}

// TestPsqlActivityAndSignals does what an operator does in psql: finds a
// running statement in pg_stat_activity, cancels it, then ends a session.
func TestPsqlActivityAndSignals(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not installed")
	}
	s := serveForTest(t)
	victim := s.connect(t, "mallard", "", "victim", nil)
	idle := s.connect(t, "mallard", "", "idle_one", nil)
	errc := startLong(victim)
	watcher := s.connect(t, "mallard", "", "watcher", nil)
	waitActive(t, watcher, victim.PgConn().PID())
	host, port, _ := net.SplitHostPort(s.addr)
	run := func(sql string) string {
		t.Helper()
		out, err := exec.Command(psql, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "mallard",
			"-d", "mallard", "-c", sql).CombinedOutput()
		if err != nil {
			t.Fatalf("psql -c %q: %v\n%s", sql, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run("SELECT application_name, state, query FROM pg_stat_activity WHERE application_name = 'victim'"); got != "victim|active|"+longStatement {
		t.Errorf("psql sees the victim as %q", got)
	}
	if got := run("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'psql' AND state = 'active'"); got != "1" {
		t.Errorf("psql does not see itself active: %q", got)
	}
	if got := run(fmt.Sprintf("SELECT pg_cancel_backend(%d)", victim.PgConn().PID())); got != "t" {
		t.Errorf("pg_cancel_backend in psql: %q", got)
	}
	var pe *pgconn.PgError
	if err := <-errc; !errors.As(err, &pe) || pe.Code != "57014" {
		t.Errorf("canceled statement: %v", err)
	}
	if got := run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'idle_one'"); got != "t" {
		t.Errorf("pg_terminate_backend in psql: %q", got)
	}
	// pg_terminate_backend returns once the signal is sent, as Postgres'
	// does without a timeout; the session ends right after.
	for deadline := time.Now().Add(5 * time.Second); idle.Ping(context.Background()) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Error("the terminated session still answers 5 s later")
			break
		}
	}
	out, _ := exec.Command(psql, "-X", "-A", "-t", "-h", host, "-p", port, "-U", "mallard", "-d", "mallard",
		"-c", "SELECT pg_cancel_backend(12345)").CombinedOutput()
	if !strings.Contains(string(out), "WARNING:  PID 12345 is not a Mallard server process") || !strings.Contains(string(out), "f") {
		t.Errorf("psql, unknown pid: %s", out)
	}
}
