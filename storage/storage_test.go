package storage_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

func openConn(t *testing.T, path string) (*storage.DB, *storage.Conn) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		if err := db.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return db, c
}

func TestQueryStreamsBatches(t *testing.T) {
	_, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	st, err := c.Prepare(ctx, "SELECT range AS i, range * 0.5 AS d FROM range($1::BIGINT)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got := st.Params(); len(got) != 1 || got[0].ID != storage.TypeBigInt {
		t.Fatalf("params = %+v, want one BIGINT", got)
	}
	if err := st.Bind([]any{"10000"}); err != nil {
		t.Fatal(err)
	}
	rows, err := st.Query(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var n, batches int64
	var sum int64
	for rows.Next() {
		b := rows.Batch()
		batches++
		col := b.Column(0).(*array.Int64)
		for i := 0; i < col.Len(); i++ {
			sum += col.Value(i)
		}
		n += b.NumRows()
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if n != 10000 || sum != 10000*9999/2 || batches < 2 {
		t.Fatalf("rows %d sum %d batches %d", n, sum, batches)
	}
}

func TestErrorsCarrySQLSTATE(t *testing.T) {
	_, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	if err := c.Exec(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	if err := c.Exec(ctx, "INSERT INTO t VALUES (1, 'a')"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		code        sqlstate.Code
		position    int
	}{
		{"syntax", "SELEC 1", sqlstate.SyntaxError, 1},
		{"missing table", "SELECT * FROM nope", sqlstate.UndefinedTable, 15},
		{"missing column", "SELECT nope FROM t", sqlstate.UndefinedColumn, 8},
		{"missing function", "SELECT nofunc(1)", sqlstate.UndefinedFunction, 8},
		{"bad cast", "SELECT 'a'::INTEGER", sqlstate.InvalidTextRepresentation, 0},
		{"out of range", "SELECT 99999999999::INTEGER", sqlstate.NumericValueOutOfRange, 0},
		{"duplicate key", "INSERT INTO t VALUES (1, 'b')", sqlstate.UniqueViolation, 0},
		{"duplicate keys in one insert", "INSERT INTO t VALUES (5, 'b'), (5, 'c')", sqlstate.UniqueViolation, 0},
		{"not null", "INSERT INTO t VALUES (2, NULL)", sqlstate.NotNullViolation, 0},
		{"exists", "CREATE TABLE t (x INT)", sqlstate.DuplicateTable, 0},
		{"not grouped", "SELECT id, count(*) FROM t", sqlstate.GroupingError, 0},
		{"date field out of range", "SELECT '2024-02-30'::DATE", sqlstate.DatetimeFieldOverflow, 0},
		{"not a timestamp", "SELECT 'noon'::TIMESTAMP", sqlstate.InvalidDatetimeFormat, 0},
		{"subquery rows", "SELECT (SELECT range FROM range(2))", sqlstate.CardinalityViolation, 0},
		{"missing view", "DROP VIEW nope", sqlstate.UndefinedTable, 0},
		{"missing schema", "CREATE TABLE nosuch.x (x INT)", sqlstate.InvalidSchemaName, 0},
		{"ambiguous column", "SELECT id FROM t, t AS u", sqlstate.AmbiguousColumn, 0},
		{"too few values", "INSERT INTO t VALUES (1)", sqlstate.SyntaxError, 0},
		{"no such column to insert", "INSERT INTO t (nope) VALUES (1)", sqlstate.UndefinedColumn, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Exec(ctx, tt.query)
			var e *sqlstate.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *sqlstate.Error", err)
			}
			if e.Code != tt.code {
				t.Errorf("code = %s (%s), want %s", e.Code, e.Message, tt.code)
			}
			if tt.position != 0 && e.Position != tt.position {
				t.Errorf("position = %d, want %d", e.Position, tt.position)
			}
		})
	}
}

// TestHintsNameUserTables checks that a mistyped table name is hinted at
// with the user's table it resembles, never with a catalog table such as
// sqlite_master that DuckDB would suggest for a name close to none.
func TestHintsNameUserTables(t *testing.T) {
	_, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	if err := c.Exec(ctx, "CREATE TABLE movies (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{"SELECT * FROM movis": `Did you mean "movies"?`, "SELECT * FROM films": ""} {
		var e *sqlstate.Error
		if err := c.Exec(ctx, query); !errors.As(err, &e) || e.Code != sqlstate.UndefinedTable || e.Hint != want {
			t.Errorf("%s: %v, hint %q; want 42P01 with hint %q", query, err, hintOf(e), want)
		}
	}
}

func hintOf(e *sqlstate.Error) string {
	if e == nil {
		return ""
	}
	return e.Hint
}

func TestInterruptCancelsWithCause(t *testing.T) {
	_, c := openConn(t, storage.MemoryPath)
	cause := &sqlstate.Error{Code: sqlstate.QueryCanceled, Message: "canceling statement due to user request"}
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(200*time.Millisecond, func() { cancel(cause) })
	err := c.Exec(ctx, "SELECT count(*) FROM range(1000000000000) a")
	if sqlstate.CodeOf(err) != sqlstate.QueryCanceled {
		t.Fatalf("err = %v, want 57014", err)
	}
	if err := c.Exec(context.Background(), "SELECT 1"); err != nil {
		t.Fatalf("connection unusable after cancel: %v", err)
	}
}

func TestFileDatabaseSharedWithSQL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.duckdb")
	db, c := openConn(t, path)
	ctx := context.Background()
	if err := c.Exec(ctx, "CREATE TABLE shared AS SELECT 42 AS v"); err != nil {
		t.Fatal(err)
	}
	var v int
	if err := db.SQL().QueryRowContext(ctx, "SELECT v FROM shared").Scan(&v); err != nil || v != 42 {
		t.Fatalf("v = %d, err = %v", v, err)
	}
}

// TestPreparedSeesNewRows runs a prepared statement whose filter matched
// nothing when it was prepared, after another connection inserts a row it
// matches: it must see the row (see DB.configure).
func TestPreparedSeesNewRows(t *testing.T) {
	db, c := openConn(t, storage.MemoryPath)
	ctx := context.Background()
	if _, err := db.SQL().ExecContext(ctx, "CREATE TABLE t AS SELECT 'done' AS name, 1 AS v"); err != nil {
		t.Fatal(err)
	}
	st, err := c.Prepare(ctx, "SELECT max(v) FROM t WHERE name = 'g'")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	maxV := func() any {
		rows, err := st.Query(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		if !rows.Next() {
			t.Fatal("no batch")
		}
		col := rows.Batch().Column(0)
		if col.IsNull(0) {
			return nil
		}
		return col.(*array.Int32).Value(0)
	}
	if v := maxV(); v != nil {
		t.Fatalf("before the insert: %v", v)
	}
	if _, err := db.SQL().ExecContext(ctx, "INSERT INTO t VALUES ('g', 5)"); err != nil {
		t.Fatal(err)
	}
	if v := maxV(); v != int32(5) {
		t.Fatalf("after another connection inserted a matching row: %v, want 5", v)
	}
}

// TestConflictsCarrySQLSTATE: concurrent transactions that collide fail
// with the codes Postgres clients retry on or report: 40001 for a
// write-write conflict, 23505 for a key both inserted.
func TestConflictsCarrySQLSTATE(t *testing.T) {
	db, a := openConn(t, storage.MemoryPath)
	b, err := db.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	run := func(c *storage.Conn, q string) error { return c.Exec(ctx, q) }
	for _, q := range []string{"CREATE TABLE k (id INTEGER PRIMARY KEY, v INTEGER)", "INSERT INTO k VALUES (1, 0)"} {
		if err := run(a, q); err != nil {
			t.Fatal(err)
		}
	}
	codeOf := func(err error) sqlstate.Code { return sqlstate.CodeOf(err) }
	// Both update row 1; the second to write conflicts.
	for _, q := range []string{"BEGIN", "UPDATE k SET v = 1 WHERE id = 1"} {
		if err := run(a, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(b, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if err := run(b, "UPDATE k SET v = 2 WHERE id = 1"); codeOf(err) != sqlstate.SerializationFailure {
		t.Errorf("conflicting update: %v, want 40001", err)
	}
	_ = run(b, "ROLLBACK")
	if err := run(a, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	// Both insert key 2; the second to commit violates the key.
	for _, c := range []*storage.Conn{a, b} {
		if err := run(c, "BEGIN"); err != nil {
			t.Fatal(err)
		}
		if err := run(c, "INSERT INTO k VALUES (2, 0)"); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(a, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if err := run(b, "COMMIT"); codeOf(err) != sqlstate.UniqueViolation {
		t.Errorf("committing a key another transaction committed: %v, want 23505", err)
	}
}
