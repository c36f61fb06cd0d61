// Package memengine is an in-memory stand-in for the engine and the
// planner that sqlfront serves with, for testing the wire protocol alone:
// it needs neither DuckDB nor the Postgres parser, so the wire fuzzers
// build and run without cgo. It is not a database. It runs SELECT of a
// list of constants (integers and single-quoted strings) and of parameters
// cast to INTEGER, BIGINT, TEXT or VARCHAR, each optionally named with AS,
// and VALUES of rows of constants (NULL after the first row): what the fuzzers' clients check a
// session with, and what the wire-only scripts of sqlfront/testdata/wire
// send, which must answer as DuckDB does. It answers the server's own
// queries of DuckDB's metadata functions (duckdb_schemas(), ...) with no
// rows, for it keeps nothing; it accepts, without effect, the statements
// the server executes itself (the catalog, settings, transaction
// control); and it refuses every other statement with 0A000, which
// exercises the wire's error paths.
package memengine

import (
	"context"
	"hash/fnv"
	"strconv"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// Engine is the stand-in engine: a sqlfront.Engine that keeps nothing.
type Engine struct {
	spool string
	ids   atomic.Uint64
}

// New returns an engine whose COPY files go to spoolDir.
func New(spoolDir string) *Engine { return &Engine{spool: spoolDir} }

// Connect opens a connection; it never fails.
func (e *Engine) Connect() (sqlfront.Conn, error) { return &conn{id: e.ids.Add(1)}, nil }

// Exec accepts any statement and does nothing.
func (e *Engine) Exec(context.Context, string) error { return nil }

// WithNotifier returns ctx: no statement sends notices.
func (e *Engine) WithNotifier(ctx context.Context, _ func(string)) context.Context { return ctx }

// IsInvalidated reports false: the engine is never invalidated.
func (e *Engine) IsInvalidated(error) bool { return false }

// Reopen reports that there was nothing to reopen.
func (e *Engine) Reopen(context.Context) (bool, error) { return false, nil }

// OnReopen drops f, which would never run.
func (e *Engine) OnReopen(func(context.Context) error) {}

// ReadOnlyError is 42501, as the real engine reports it.
func (e *Engine) ReadOnlyError(what string) error {
	return sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied to run %s: this session is read-only", what)
}

// Reserve grants every reservation: memengine has no memory budget.
func (e *Engine) Reserve(context.Context, int64, string) (func(), error) { return func() {}, nil }

// SpoolDir is the directory New was given.
func (e *Engine) SpoolDir() string { return e.spool }

type conn struct {
	id       uint64
	readOnly atomic.Bool
}

// Prepare accepts what memengine runs (see parseSelect, parseValues and
// metadataQuery), and refuses anything else.
func (c *conn) Prepare(_ context.Context, text string) (sqlfront.Stmt, error) {
	if q, ok := parseSelect(text); ok {
		return &stmt{q: q}, nil
	}
	if q, ok := parseValues(text); ok {
		return &stmt{q: q}, nil
	}
	if n, ok := metadataQuery(text); ok {
		return &stmt{q: metadata(n)}, nil
	}
	return nil, sqlstate.New(sqlstate.FeatureNotSupported, "memengine runs only SELECT and VALUES of constants, not %q", text)
}

// PrepareOwn is Prepare: memengine has no files of its own to guard.
func (c *conn) PrepareOwn(ctx context.Context, text string) (sqlfront.Stmt, error) {
	return c.Prepare(ctx, text)
}

func (c *conn) Exec(context.Context, string) error { return nil }
func (c *conn) Close() error                       { return nil }
func (c *conn) ID() uint64                         { return c.id }
func (c *conn) SetReadOnly()                       { c.readOnly.Store(true) }
func (c *conn) Stale() bool                        { return false }

// metadata is the answer to a query of DuckDB's metadata: n VARCHAR
// columns and no rows.
func metadata(n int) *query {
	q := &query{cols: make([]sqltype.Column, n)}
	for i := range q.cols {
		q.cols[i] = sqltype.Column{Name: "column" + strconv.Itoa(i), Type: sqltype.Type{ID: sqltype.Varchar}}
	}
	return q
}

// stmt is a prepared query and the parameters of its next Query.
type stmt struct {
	q    *query
	args []any
}

func (s *stmt) Params() []sqltype.Type    { return s.q.params }
func (s *stmt) Columns() []sqltype.Column { return s.q.cols }
func (s *stmt) Result() sqltype.Result    { return sqltype.ResultRows }
func (s *stmt) Close()                    {}

// Bind keeps args for Query; sqlfront has checked their number.
func (s *stmt) Bind(args []any) error {
	if len(args) != len(s.q.params) {
		return sqlstate.New(sqlstate.ProtocolViolation, "bind message supplies %d parameters, but prepared statement requires %d", len(args), len(s.q.params))
	}
	s.args = args
	return nil
}

// Query returns the rows in one batch, their parameters replaced by the
// values of the last Bind, converted to the types they are cast to.
func (s *stmt) Query(context.Context) (sqlfront.Rows, error) {
	r := &rows{cols: s.q.cols}
	if len(s.q.rows) == 0 {
		return r, nil
	}
	fields := make([]arrow.Field, len(s.q.cols))
	arrays := make([]arrow.Array, len(s.q.cols))
	defer func() {
		for _, a := range arrays {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, col := range s.q.cols {
		values := make([]any, len(s.q.rows))
		for j, row := range s.q.rows {
			values[j] = row[i].value
			if n := row[i].param; n > 0 {
				values[j] = s.args[n-1]
			}
		}
		var err error
		if fields[i], arrays[i], err = column(col, values); err != nil {
			return nil, err
		}
	}
	r.batch = array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, int64(len(s.q.rows)))
	return r, nil
}

// rows is the result of a stmt: one batch, or none.
type rows struct {
	cols  []sqltype.Column
	batch arrow.RecordBatch
	read  bool
}

func (r *rows) Result() sqltype.Result    { return sqltype.ResultRows }
func (r *rows) Columns() []sqltype.Column { return r.cols }
func (r *rows) RowsAffected() int64       { return 0 }
func (r *rows) Batch() arrow.RecordBatch  { return r.batch }
func (r *rows) Err() error                { return nil }

func (r *rows) Next() bool {
	ok := !r.read && r.batch != nil
	r.read = true
	return ok
}

func (r *rows) Close() error {
	if r.batch != nil {
		r.batch.Release()
		r.batch = nil
	}
	return nil
}

// Planner is the stand-in planner: package plan's lexer alone, with no
// rewriting, and a statement's text as its own fingerprint.
type Planner struct{}

// Plan splits query into statements and classifies them.
func (Planner) Plan(query string) []plan.Statement { return plan.Split(query) }

// PlanParse classifies text; the parameter types play no part.
func (Planner) PlanParse(text string, _ []string) plan.Statement { return plan.Classify(text) }

// Fingerprint groups only identical texts.
func (Planner) Fingerprint(text string) (int64, string) {
	h := fnv.New64a()
	h.Write([]byte(text))
	return int64(h.Sum64()), text
}

var (
	_ sqlfront.Engine  = (*Engine)(nil)
	_ sqlfront.Planner = Planner{}
)
