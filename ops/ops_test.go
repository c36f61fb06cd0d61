//go:build duckdb_arrow

package ops_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallard/mallard/ops"
	"github.com/mallard/mallard/planner/catalog"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/sqlfront/statements"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// sessions is a stand-in for the server's sessions that records what the
// functions ask of it.
type sessions struct {
	mu       sync.Mutex
	backends []sqlfront.Backend
	stats    []statements.Stat
	signaled []signal
	awaited  []time.Duration
	resets   int
	err      error // Signal's error
}

type signal struct {
	by, pid   int64
	terminate bool
}

func (s *sessions) Activity() []sqlfront.Backend { return s.backends }

func (s *sessions) Signal(by uint64, pid int64, terminate bool) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signaled = append(s.signaled, signal{int64(by), pid, terminate})
	return s.err == nil, s.err
}

func (s *sessions) AwaitEnd(by uint64, pid int64, timeout time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.awaited = append(s.awaited, timeout)
	return true
}

func (s *sessions) Statements() []statements.Stat { return s.stats }

func (s *sessions) ResetStatements() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resets++
}

// open installs the catalog and ops over sess in a fresh in-memory
// database and returns a connection, whose caller token the functions
// see as the planner passes it.
func open(t *testing.T, sess *sessions) *storage.Conn {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(ctx) })
	for _, q := range catalog.Statements() {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := ops.Register(ctx, db, sess); err != nil {
		t.Fatal(err)
	}
	conn, err := db.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// query runs q on conn and returns its rows, each value as Arrow prints it.
func query(t *testing.T, conn *storage.Conn, q string) ([][]string, error) {
	t.Helper()
	stmt, err := conn.Prepare(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	rows, err := stmt.Query(context.Background())
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		b := rows.Batch()
		for i := range int(b.NumRows()) {
			row := make([]string, b.NumCols())
			for k := range row {
				row[k] = b.Column(k).ValueStr(i)
			}
			out = append(out, row)
		}
	}
	return out, rows.Close()
}

// caller is the first argument the planner passes the operator's scalar
// functions: the calling connection's token.
const caller = "json_object('id', getvariable('mallard_connection'))"

func TestSignals(t *testing.T) {
	tests := []struct {
		name, query string
		want        signal
		wait        time.Duration
	}{
		{"cancel", "SELECT pg_cancel_backend(" + caller + ", 42)", signal{pid: 42}, 0},
		{"terminate", "SELECT pg_terminate_backend(" + caller + ", 7)", signal{pid: 7, terminate: true}, 0},
		{"terminate and wait", "SELECT pg_terminate_backend(" + caller + ", 7, 250)", signal{pid: 7, terminate: true}, 250 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sess := &sessions{}
			conn := open(t, sess)
			rows, err := query(t, conn, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.by = int64(conn.ID())
			if len(rows) != 1 || rows[0][0] != "true" || len(sess.signaled) != 1 || sess.signaled[0] != tt.want {
				t.Errorf("rows %v, signaled %v; want true and %v", rows, sess.signaled, tt.want)
			}
			if tt.wait > 0 && (len(sess.awaited) != 1 || sess.awaited[0] != tt.wait) {
				t.Errorf("awaited %v, want %v", sess.awaited, tt.wait)
			}
		})
	}
}

func TestSignalErrors(t *testing.T) {
	sess := &sessions{err: sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied to cancel session 9")}
	conn := open(t, sess)
	for _, tt := range []struct {
		query string
		want  sqlstate.Code
		text  string
	}{
		{"SELECT pg_cancel_backend(" + caller + ", 9)", sqlstate.InsufficientPrivilege, "permission denied to cancel session 9"},
		{"SELECT pg_terminate_backend(" + caller + ", 9, -1)", sqlstate.InvalidParameterValue, `"timeout" must not be negative`},
	} {
		_, err := query(t, conn, tt.query)
		var e *sqlstate.Error
		if !errors.As(err, &e) || e.Code != tt.want || !strings.Contains(e.Message, tt.text) {
			t.Errorf("%s: err = %v, want %s %q", tt.query, err, tt.want, tt.text)
		}
	}
	if len(sess.signaled) != 1 {
		t.Errorf("a negative timeout signaled a session: %v", sess.signaled)
	}
}

// TestActivity: pg_stat_activity lists the sessions; the owner role sees
// what each runs, and a caller that is no session sees nothing of it.
func TestActivity(t *testing.T) {
	sess := &sessions{}
	conn := open(t, sess)
	sess.backends = []sqlfront.Backend{
		{PID: 1, User: "mallard", State: "active", Query: "SELECT 1", Conn: conn.ID(), ClientPort: -1},
		{PID: 2, User: "reader", State: "idle", Query: "SELECT secret", ClientAddr: "10.0.0.2", ClientPort: 5000, ReadOnly: true},
	}
	rows, err := query(t, conn, "SELECT pid, usename, state, query, client_addr, client_port FROM mallard_catalog.pg.pg_stat_activity ORDER BY pid")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "mallard", "active", "SELECT 1", "(null)", "(null)"}, {"2", "reader", "idle", "SELECT secret", "10.0.0.2", "5000"}}
	if !equal(rows, want) {
		t.Errorf("owner sees %v, want %v", rows, want)
	}
	sess.backends[0].Conn = conn.ID() + 1000 // the caller is no listed session
	rows, err = query(t, conn, "SELECT query FROM mallard_catalog.pg.pg_stat_activity ORDER BY pid")
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"<insufficient privilege>"}, {"<insufficient privilege>"}}; !equal(rows, want) {
		t.Errorf("a caller that is no session sees %v, want %v", rows, want)
	}
}

// TestCursors: pg_cursors lists the calling session's cursors only.
func TestCursors(t *testing.T) {
	sess := &sessions{}
	conn := open(t, sess)
	at := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	sess.backends = []sqlfront.Backend{
		{PID: 1, User: "mallard", Conn: conn.ID(), Cursors: []sqlfront.Cursor{
			{Name: "c_1", Statement: "DECLARE c_1 CURSOR FOR SELECT 1", CreationTime: at},
			{Name: "Held", Statement: `DECLARE "Held" CURSOR WITH HOLD FOR SELECT 2`, Holdable: true, CreationTime: at}}},
		{PID: 2, User: "mallard", Conn: conn.ID() + 1000, Cursors: []sqlfront.Cursor{{Name: "theirs", CreationTime: at}}},
	}
	rows, err := query(t, conn, "SELECT name, statement, is_holdable, is_binary, is_scrollable, creation_time = TIMESTAMPTZ '2026-12-07 10:00:00+00' FROM mallard_catalog.pg.pg_cursors")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"c_1", "DECLARE c_1 CURSOR FOR SELECT 1", "false", "false", "false", "true"},
		{"Held", `DECLARE "Held" CURSOR WITH HOLD FOR SELECT 2`, "true", "false", "false", "true"}}
	if !equal(rows, want) {
		t.Errorf("pg_cursors: %v, want %v", rows, want)
	}
}

// TestStatements: pg_stat_statements lists the statistics, and
// pg_stat_statements_reset() forgets them.
func TestStatements(t *testing.T) {
	sess := &sessions{}
	conn := open(t, sess)
	sess.backends = []sqlfront.Backend{{PID: 1, User: "mallard", Conn: conn.ID()}}
	sess.stats = []statements.Stat{{User: "mallard", QueryID: 5, Query: "SELECT $1", Calls: 3, Rows: 3}}
	rows, err := query(t, conn, "SELECT queryid, query, calls, rows FROM mallard_catalog.pg.pg_stat_statements")
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"5", "SELECT $1", "3", "3"}}; !equal(rows, want) {
		t.Errorf("pg_stat_statements %v, want %v", rows, want)
	}
	if _, err := query(t, conn, "SELECT pg_stat_statements_reset("+caller+")"); err != nil {
		t.Fatal(err)
	}
	if sess.resets != 1 {
		t.Errorf("resets = %d, want 1", sess.resets)
	}
}

func equal(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}

func TestSurface(t *testing.T) {
	if got := strings.Join(ops.Scalars(), ","); got != "pg_cancel_backend,pg_terminate_backend,pg_stat_statements_reset" {
		t.Errorf("Scalars() = %s", got)
	}
	if got := strings.Join(ops.Views(), ","); got != "pg_stat_statements" {
		t.Errorf("Views() = %s", got)
	}
}
