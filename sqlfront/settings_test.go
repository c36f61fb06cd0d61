//go:build duckdb_arrow

package sqlfront_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/sqlfront"
)

func TestSessionParameters(t *testing.T) {
	forEachMode(t, func(t *testing.T, conn *pgx.Conn) {
		ctx := context.Background()
		show := func(name string) string {
			t.Helper()
			var v string
			if err := conn.QueryRow(ctx, "SHOW "+name).Scan(&v); err != nil {
				t.Fatalf("SHOW %s: %v", name, err)
			}
			return v
		}
		if got := show("server_version_num"); got != "150000" {
			t.Errorf("server_version_num = %q", got)
		}
		mustExec(t, conn, "SET application_name = 'mallard-test'")
		if got := show("application_name"); got != "mallard-test" {
			t.Errorf("application_name = %q", got)
		}
		if got := conn.PgConn().ParameterStatus("application_name"); got != "mallard-test" {
			t.Errorf("ParameterStatus application_name = %q, want the new value reported", got)
		}
		var cs string
		if err := conn.QueryRow(ctx, "SELECT current_setting('application_name')").Scan(&cs); err != nil || cs != "mallard-test" {
			t.Errorf("current_setting = %q, %v", cs, err)
		}
		mustExec(t, conn, "RESET application_name")
		if got := show("application_name"); got != "" {
			t.Errorf("after RESET application_name = %q", got)
		}
		var sc string
		if err := conn.QueryRow(ctx, "SELECT set_config('search_path', 'public', false)").Scan(&sc); err != nil || sc != "public" {
			t.Errorf("set_config = %q, %v", sc, err)
		}
		if got := show("search_path"); got != "public" {
			t.Errorf("search_path = %q", got)
		}
		if got := show("TRANSACTION ISOLATION LEVEL"); got == "" {
			t.Error("no transaction isolation level")
		}
		mustExec(t, conn, "SET ordered_aggregate_threshold = 1234") // DuckDB's own per-session settings stay reachable
		if got := show("ordered_aggregate_threshold"); got != "1234" {
			t.Errorf("ordered_aggregate_threshold = %q", got)
		}
		for _, tt := range []struct{ sql, code string }{
			{"SET no_such_parameter = 1", "42704"},
			{"SHOW no_such_parameter", "42704"},
			{"SET client_encoding = 'LATIN1'", "22023"},
			{"SET server_version = '16'", "55P02"},
			{"LISTEN channel", "0A000"},
		} {
			_, err := conn.Exec(ctx, tt.sql)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != tt.code {
				t.Errorf("%s: %v, want %s", tt.sql, err, tt.code)
			}
		}
		mustExec(t, conn, "SET statement_timeout = '100ms'")
		_, err := conn.Exec(ctx, "SELECT count(*) FROM range(10000000000000) a")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" {
			t.Fatalf("statement_timeout: %v, want 57014", err)
		}
		mustExec(t, conn, "SET statement_timeout = 0")
	})
}

func TestSetLocalEndsWithTransaction(t *testing.T) {
	forEachMode(t, func(t *testing.T, conn *pgx.Conn) {
		ctx := context.Background()
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL application_name = 'inside'"); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		var v string
		if err := conn.QueryRow(ctx, "SHOW application_name").Scan(&v); err != nil || v != "" {
			t.Errorf("after COMMIT application_name = %q, %v; want the value before SET LOCAL", v, err)
		}
	})
}

func TestSerialAndDeallocate(t *testing.T) {
	forEachMode(t, func(t *testing.T, conn *pgx.Conn) {
		ctx := context.Background()
		mustExec(t, conn, "CREATE TABLE ser (id SERIAL PRIMARY KEY, name TEXT)")
		mustExec(t, conn, "INSERT INTO ser (name) VALUES ('a'), ('b')")
		var maxID int64
		if err := conn.QueryRow(ctx, "SELECT max(id) FROM ser").Scan(&maxID); err != nil || maxID != 2 {
			t.Fatalf("max(id) = %d, %v", maxID, err)
		}
		if tag := mustExec(t, conn, "DEALLOCATE ALL"); tag.String() != "DEALLOCATE ALL" {
			t.Errorf("tag %q", tag)
		}
		// Statements the driver cached are gone: as with Postgres, pgx's next
		// use of one fails with 26000 and the driver then prepares it again.
		err := conn.QueryRow(ctx, "SELECT max(id) FROM ser").Scan(&maxID)
		var pe *pgconn.PgError
		if err != nil && !(errors.As(err, &pe) && pe.Code == "26000") {
			t.Fatalf("after DEALLOCATE ALL: %v", err)
		}
		if err := conn.QueryRow(ctx, "SELECT max(id) FROM ser").Scan(&maxID); err != nil {
			t.Fatalf("again after DEALLOCATE ALL: %v", err)
		}
	})
}

func TestCursors(t *testing.T) {
	forEachMode(t, func(t *testing.T, conn *pgx.Conn) {
		ctx := context.Background()
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, "DECLARE big CURSOR FOR SELECT range AS i FROM range(10)"); err != nil {
			t.Fatal(err)
		}
		var got []int64
		for {
			rows, err := tx.Query(ctx, "FETCH FORWARD 4 FROM big", pgx.QueryExecModeSimpleProtocol)
			if err != nil {
				t.Fatal(err)
			}
			batch, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				t.Fatal(err)
			}
			if rows.CommandTag().String() != fmt.Sprintf("FETCH %d", len(batch)) {
				t.Errorf("tag %q for %d rows", rows.CommandTag(), len(batch))
			}
			if len(batch) == 0 {
				break
			}
			got = append(got, batch...)
		}
		if len(got) != 10 || got[0] != 0 || got[9] != 9 {
			t.Fatalf("fetched %v", got)
		}
		if tag, err := tx.Exec(ctx, "CLOSE big"); err != nil || tag.String() != "CLOSE CURSOR" {
			t.Fatalf("close: %v %v", tag, err)
		}
		_, err = tx.Exec(ctx, "FETCH 1 FROM big")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "34000" {
			t.Fatalf("fetch from closed cursor: %v, want 34000", err)
		}
	})
}

// TestStatementTimeoutDefault: the server's default statement_timeout is
// each session's, shows as Postgres shows it, cancels a long statement
// with 57014, and a session may turn it off.
func TestStatementTimeoutDefault(t *testing.T) {
	addr := startServer(t, sqlfront.Config{StatementTimeout: 300 * time.Millisecond})
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var shown string
	if err := conn.QueryRow(ctx, "SHOW statement_timeout").Scan(&shown); err != nil || shown != "300ms" && shown != "300" {
		t.Fatalf("SHOW statement_timeout = %q, %v", shown, err)
	}
	_, err = conn.Exec(ctx, "SELECT count(*) FROM range(1000000000000) a")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("long statement: %v, want 57014", err)
	}
	if _, err := conn.Exec(ctx, "SET statement_timeout = 0"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SHOW statement_timeout").Scan(&shown); err != nil || shown != "0" {
		t.Fatalf("after SET: %q, %v", shown, err)
	}
}

// TestDiscard: DISCARD ALL, which connection poolers send between clients,
// closes prepared statements, resets parameters and drops temporary
// tables and views, and is refused inside a transaction block; DISCARD
// TEMP drops only the temporary objects.
func TestDiscard(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeSimpleProtocol)
	count := func(q string) int {
		t.Helper()
		var n int
		if err := conn.QueryRow(ctx, q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	const temps = "SELECT (SELECT count(*) FROM duckdb_tables() WHERE temporary) + (SELECT count(*) FROM duckdb_views() WHERE temporary AND NOT internal)"
	mustExec(t, conn, "CREATE TEMP TABLE tt (a INTEGER); CREATE TEMP VIEW tv AS SELECT 1 AS a; CREATE TABLE kept (a INTEGER)")
	if _, err := conn.Exec(ctx, "DISCARD TEMP"); err != nil || count(temps) != 0 || count("SELECT count(*) FROM kept") != 0 {
		t.Fatalf("DISCARD TEMP: %v, %d temporary objects left", err, count(temps))
	}
	mustExec(t, conn, "CREATE TEMP TABLE tt (a INTEGER); SET application_name = 'pooled'; SET extra_float_digits = 3")
	if _, err := conn.Prepare(ctx, "s1", "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	_, err := conn.Exec(ctx, "DISCARD ALL")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "25001" {
		t.Errorf("DISCARD ALL in a transaction: %v, want 25001", err)
	}
	mustExec(t, conn, "ROLLBACK")
	tag, err := conn.Exec(ctx, "DISCARD ALL")
	if err != nil || tag.String() != "DISCARD ALL" {
		t.Fatalf("DISCARD ALL: %q, %v", tag, err)
	}
	var app, digits string
	if err := conn.QueryRow(ctx, "SELECT current_setting('application_name'), current_setting('extra_float_digits')").Scan(&app, &digits); err != nil || app == "pooled" || digits == "3" {
		t.Errorf("after DISCARD ALL: application_name %q, extra_float_digits %q (%v)", app, digits, err)
	}
	if n := count(temps); n != 0 {
		t.Errorf("%d temporary objects after DISCARD ALL", n)
	}
	_, err = conn.Exec(ctx, "s1")
	if !errors.As(err, &pe) || pe.Code != "26000" {
		t.Errorf("prepared statement after DISCARD ALL: %v, want 26000", err)
	}
}

// TestCustomOptions: any dotted name is a customized option, as in
// Postgres, that SET, set_config, SHOW, current_setting and RESET handle as
// text; it is unknown until first set, empty after RESET, and its SETs
// follow the transaction they were made in.
func TestCustomOptions(t *testing.T) {
	forEachMode(t, func(t *testing.T, conn *pgx.Conn) {
		ctx := context.Background()
		value := func(q string) *string {
			t.Helper()
			var v *string
			if err := conn.QueryRow(ctx, q).Scan(&v); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			return v
		}
		want := func(q, w string) {
			t.Helper()
			if v := value(q); v == nil {
				t.Errorf("%s = NULL, want %q", q, w)
			} else if *v != w {
				t.Errorf("%s = %q, want %q", q, *v, w)
			}
		}
		wantCode := func(q, code string) {
			t.Helper()
			_, err := conn.Exec(ctx, q)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != code {
				t.Errorf("%s: %v, want %s", q, err, code)
			}
		}
		const uid = "SELECT current_setting('myapp.user_id')"
		wantCode("SHOW myapp.user_id", "42704")
		wantCode(uid, "42704")
		if v := value("SELECT current_setting('myapp.user_id', true)"); v != nil {
			t.Errorf("missing_ok of an undefined option = %q, want NULL", *v)
		}
		wantCode("SET nodot = 1", "42704")
		wantCode(`SET "my app".x = 1`, "42602")
		wantCode("SET myapp.list = 'a', 'b'", "22023")

		mustExec(t, conn, "SET myapp.user_id = 42")
		want("SHOW myapp.user_id", "42")
		want(uid, "42")
		want("SELECT current_setting('MYAPP.USER_ID', false)", "42")
		want("SELECT set_config('myapp.role', 'admin', false)", "admin")
		want("SELECT current_setting('myapp.role')", "admin")

		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "SET myapp.user_id = 7")
		want(uid, "7")
		mustExec(t, conn, "ROLLBACK")
		want(uid, "42")

		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "SET LOCAL myapp.user_id = 8")
		want("SELECT set_config('myapp.role', 'guest', true)", "guest")
		want(uid, "8")
		mustExec(t, conn, "COMMIT")
		want(uid, "42")
		want("SELECT current_setting('myapp.role')", "admin")

		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "SET myapp.user_id = 9")
		wantCode("SELECT 1/0", "22012")
		mustExec(t, conn, "COMMIT") // of a failed block: a rollback
		want(uid, "42")

		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "SET myapp.user_id = 10")
		mustExec(t, conn, "COMMIT")
		want(uid, "10")

		// Outside a block the statement is its own transaction.
		want("SELECT set_config('myapp.tmp', 'v', true)", "v")
		want("SELECT current_setting('myapp.tmp', true)", "")

		mustExec(t, conn, "RESET myapp.user_id")
		want(uid, "")
		mustExec(t, conn, "SET myapp.user_id = 11")
		mustExec(t, conn, "RESET ALL")
		want("SHOW myapp.user_id", "")
		mustExec(t, conn, "SET myapp.user_id = 12")
		mustExec(t, conn, "DISCARD ALL") // which drops pgx's cached statements too
		want("SELECT current_setting('myapp.user_id') AS after_discard", "")
	})
}

// TestSetsOfAFailedQuery: the statements of one simple Query outside a
// block are one transaction, whose failure undoes their SETs.
func TestSetsOfAFailedQuery(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t, sqlfront.Config{}), pgx.QueryExecModeSimpleProtocol)
	mustExec(t, conn, "SET myapp.step = 'before'; SET application_name = 'before'")
	if _, err := conn.Exec(ctx, "SET myapp.step = 'during'; SET application_name = 'during'; SELECT 1/0"); err == nil {
		t.Fatal("1/0 succeeded")
	}
	var step, app string
	if err := conn.QueryRow(ctx, "SELECT current_setting('myapp.step'), current_setting('application_name')").Scan(&step, &app); err != nil {
		t.Fatal(err)
	}
	if step != "before" || app != "before" || conn.PgConn().ParameterStatus("application_name") != "before" {
		t.Errorf("after the failed query: myapp.step %q, application_name %q (reported %q), want both \"before\"",
			step, app, conn.PgConn().ParameterStatus("application_name"))
	}
}
