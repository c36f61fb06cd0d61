//go:build duckdb_arrow && linux

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// procStatus reads field (VmRSS, VmHWM) of the process's /proc status, in bytes.
func (p *mallardProcess) procStatus(t testing.TB, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc status", field)
	return 0
}

// startWithReader starts mallard with the owner's password pw (which the
// helpers' connections take from PGPASSWORD) and the read-only role's rpw.
func startWithReader(t testing.TB, name string, flags ...string) *mallardProcess {
	t.Setenv("PGPASSWORD", "pw")
	return startMallard(t, filepath.Join(t.TempDir(), name), append(flags, "--password", "pw", "--reader-password", "rpw")...)
}

// readerConn opens a low-level connection to p as the read-only role.
func readerConn(t testing.TB, p *mallardProcess) *pgconn.PgConn {
	t.Helper()
	host, port, _ := net.SplitHostPort(p.addr)
	c, err := pgconn.Connect(context.Background(),
		fmt.Sprintf("host=%s port=%s user=reader password=rpw sslmode=disable connect_timeout=10", host, port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// untilReady sends msgs and reads the answers to ReadyForQuery, returning
// the error response among them, if any, and how many DataRows came.
func untilReady(t testing.TB, c *pgconn.PgConn, msgs ...pgproto3.FrontendMessage) (*pgproto3.ErrorResponse, int) {
	t.Helper()
	fe := c.Frontend()
	for _, m := range msgs {
		fe.Send(m)
	}
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var failed *pgproto3.ErrorResponse
	rows := 0
	for {
		m, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		switch m := m.(type) {
		case *pgproto3.ErrorResponse:
			e := *m
			failed = &e
		case *pgproto3.DataRow:
			rows++
		case *pgproto3.ReadyForQuery:
			return failed, rows
		}
	}
}

// TestSuspendedPortalWithinLimit: with --memory-limit 256MB, the read-only
// role suspends a named portal of 10M rows (about 700 MB as Arrow) inside a
// transaction block after one row, then sends a simple Query, which needs
// the DuckDB connection the portal streams from. The portal's rows are
// read into memory only as far as the memory budget allows: the Query
// fails with 53200 naming the suspended portal, the server's peak RSS
// stays within the limit plus 256 MB, and the session goes on after
// ROLLBACK. Before the budget, the whole result was read and the peak
// passed 700 MB.
func TestSuspendedPortalWithinLimit(t *testing.T) {
	const limit = 256 << 20
	p := startWithReader(t, "portal.duckdb", "--memory-limit", "256MiB")
	c := readerConn(t, p)
	if e, _ := untilReady(t, c, &pgproto3.Query{String: "BEGIN"}); e != nil {
		t.Fatalf("BEGIN: %s", e.Message)
	}
	e, rows := untilReady(t, c,
		&pgproto3.Parse{Query: "SELECT i, repeat('x', 50) FROM range(10000000) t(i)"},
		&pgproto3.Bind{DestinationPortal: "p"}, &pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Sync{})
	if e != nil || rows != 1 {
		t.Fatalf("Execute with max_rows 1: %d rows, error %v", rows, e)
	}
	before := p.procStatus(t, "VmRSS")
	e, _ = untilReady(t, c, &pgproto3.Query{String: "SELECT 1"})
	peak := p.procStatus(t, "VmHWM")
	t.Logf("RSS before the Query %d MB, peak %d MB", before>>20, peak>>20)
	if e == nil || e.Code != "53200" || !strings.Contains(e.Message, "suspended portal") {
		t.Errorf("a Query beside a suspended portal of 10M rows under a 256 MiB limit gave %+v, want 53200 naming the portal", e)
	}
	if peak > limit+256<<20 {
		t.Errorf("peak RSS %d MB, past the limit + 256 MB (%d MB)", peak>>20, (limit+256<<20)>>20)
	}
	if e, _ := untilReady(t, c, &pgproto3.Query{String: "ROLLBACK"}); e != nil {
		t.Fatalf("ROLLBACK: %s", e.Message)
	}
	if e, rows := untilReady(t, c, &pgproto3.Query{String: "SELECT count(*) FROM range(1000)"}); e != nil || rows != 1 {
		t.Fatalf("a query after the refused one: %d rows, %v", rows, e)
	}
}

// TestMaxPreparedStatements: a session holds at most
// mallard.max_prepared_statements prepared statements (the start-up flag
// sets the default, SET changes it); one more fails with 53200 naming the
// setting, and closing one makes room.
func TestMaxPreparedStatements(t *testing.T) {
	ctx := context.Background()
	p := startWithReader(t, "prep.duckdb", "--max-prepared-statements", "20")
	c := readerConn(t, p)
	res, err := c.Exec(ctx, "SHOW mallard.max_prepared_statements").ReadAll()
	if err != nil || len(res) != 1 || len(res[0].Rows) != 1 || string(res[0].Rows[0][0]) != "20" {
		t.Fatalf("SHOW mallard.max_prepared_statements: %v %v, want 20", res, err)
	}
	if _, err := c.Exec(ctx, "SET mallard.max_prepared_statements = 5").ReadAll(); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if _, err := c.Prepare(ctx, fmt.Sprintf("s%d", i), "SELECT $1::int + 1", nil); err != nil {
			t.Fatalf("statement %d of 5: %v", i, err)
		}
	}
	_, err = c.Prepare(ctx, "s5", "SELECT $1::int + 1", nil)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53200" || !strings.Contains(pe.Message, "mallard.max_prepared_statements = 5") {
		t.Fatalf("the 6th prepared statement gave %v, want 53200 naming mallard.max_prepared_statements", err)
	}
	if _, err := c.Prepare(ctx, "", "SELECT 1", nil); err != nil {
		t.Errorf("the unnamed statement, not counted: %v", err)
	}
	if err := c.Deallocate(ctx, "s0"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Prepare(ctx, "s5", "SELECT $1::int + 1", nil); err != nil {
		t.Errorf("after closing one: %v", err)
	}
	if _, err := c.Exec(ctx, "SET mallard.max_prepared_statements = 0").ReadAll(); !errors.As(err, &pe) || pe.Code != "22023" {
		t.Errorf("SET mallard.max_prepared_statements = 0 gave %v, want 22023", err)
	}
}

// TestMaxPreparedCountsSQLPrepare: SQL PREPARE counts against the owner's
// bound as protocol statements do, and DEALLOCATE makes room.
func TestMaxPreparedCountsSQLPrepare(t *testing.T) {
	ctx := context.Background()
	p := startMallard(t, filepath.Join(t.TempDir(), "sqlprep.duckdb"), "--max-prepared-statements", "2")
	conn := p.connect(t)
	c := conn.PgConn()
	exec := func(sql string) error {
		_, err := c.Exec(ctx, sql).ReadAll()
		return err
	}
	if err := exec("PREPARE a AS SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Prepare(ctx, "b", "SELECT 2", nil); err != nil {
		t.Fatal(err)
	}
	if err := exec("PREPARE c AS SELECT 3"); sqlState(err) != "53200" {
		t.Fatalf("a third statement beside SQL PREPARE's gave %v, want 53200", err)
	}
	if err := exec("DEALLOCATE a"); err != nil {
		t.Fatal(err)
	}
	if err := exec("PREPARE c AS SELECT 3"); err != nil {
		t.Errorf("PREPARE after DEALLOCATE: %v", err)
	}
}

// TestStatementTextBounded: pg_stat_statements keeps at most
// --track-activity-query-size bytes of a statement's text, and
// pg_stat_statements_reset() empties it.
func TestStatementTextBounded(t *testing.T) {
	ctx := context.Background()
	p := startMallard(t, filepath.Join(t.TempDir(), "stats.duckdb"), "--track-activity-query-size", "200")
	conn := p.connect(t)
	cols := make([]string, 2000) // about 30 KB even with its constants normalised
	for i := range cols {
		cols[i] = fmt.Sprintf("%d AS long_column_%d", i, i)
	}
	if _, err := conn.Exec(ctx, "SELECT "+strings.Join(cols, ", ")); err != nil {
		t.Fatalf("long statement: %v", err)
	}
	var n int64
	var longest int64
	if err := conn.QueryRow(ctx, "SELECT max(length(query)) FROM pg_stat_statements").Scan(&longest); err != nil {
		t.Fatal(err)
	}
	if longest > 200 || longest == 0 {
		t.Errorf("longest kept text %d bytes, want 1 to 200", longest)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_stat_statements_reset()"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_statements WHERE query LIKE '%long_column%'").Scan(&n); err != nil || n != 0 {
		t.Errorf("after reset: %d groups of the long statement, %v", n, err)
	}
}

// TestOutOfMemoryGivesMemoryBack: with --memory-limit 1GiB, a query
// whose aggregate needs 8 GB fails with 53200 in three sessions one after
// the other; idle after each, the server gives the memory back to the
// system (RSS falls below 256 MB within 30 s), so the server's peak RSS
// stays within the limit plus 256 MB. Each session waits for the return,
// which jemalloc's background threads make as the host's load lets them:
// on a loaded host a session that did not wait met the last one's pages
// not yet returned. Before those threads were on, the peak was 1.8 to
// 2.0 GB and RSS stayed at 1.0 to 1.7 GB idle.
func TestOutOfMemoryGivesMemoryBack(t *testing.T) {
	const limit = 1 << 30
	p := startWithReader(t, "oom.duckdb", "--memory-limit", "1GiB")
	for range 3 {
		c := readerConn(t, p) // a session each, as three clients would
		e, _ := untilReady(t, c, &pgproto3.Query{String: "SELECT list(i) FROM range(1000000000) t(i)"})
		c.Close(context.Background())
		if e == nil || e.Code != "53200" {
			t.Fatalf("a list of 1e9 integers under a 1 GiB limit gave %+v, want 53200", e)
		}
		if rss := idleRSS(t, p); rss > 256<<20 {
			t.Fatalf("RSS %d MB 30 s after a query failed with 53200, want below 256 MB", rss>>20)
		}
	}
	peak := p.procStatus(t, "VmHWM")
	t.Logf("peak RSS %d MB", peak>>20)
	if peak > limit+256<<20 {
		t.Errorf("peak RSS %d MB, past the limit + 256 MB", peak>>20)
	}
	rss := idleRSS(t, p)
	if rss > 256<<20 {
		t.Errorf("idle RSS %d MB 30 s after the failures, want under 256 MB", rss>>20)
	}
}

// idleRSS is p's RSS once it falls below 256 MB, or after 30 s.
func idleRSS(t *testing.T, p *mallardProcess) int64 {
	rss := p.procStatus(t, "VmRSS")
	for deadline := time.Now().Add(30 * time.Second); rss > 256<<20 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		rss = p.procStatus(t, "VmRSS")
	}
	return rss
}
