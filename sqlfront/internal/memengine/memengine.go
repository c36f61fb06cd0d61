// Package memengine is an in-memory stand-in for the engine and the
// planner that sqlfront serves with, for testing the wire protocol alone:
// it needs neither DuckDB nor the Postgres parser, so the wire fuzzers
// build and run without cgo. It is not a database. It runs SELECT of a
// list of constants (integers and single-quoted strings), which is what
// the fuzzers' clients check a session with; it answers the server's own
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
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

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

// SpoolDir is the directory New was given.
func (e *Engine) SpoolDir() string { return e.spool }

type conn struct {
	id       uint64
	readOnly atomic.Bool
}

// Prepare accepts SELECT of constants and of DuckDB's metadata, and
// refuses anything else.
func (c *conn) Prepare(_ context.Context, query string) (sqlfront.Stmt, error) {
	if values, ok := constants(query); ok {
		return &stmt{values: values}, nil
	}
	if n, ok := metadataQuery(query); ok {
		return &stmt{empty: n}, nil
	}
	return nil, sqlstate.New(sqlstate.FeatureNotSupported, "memengine runs only SELECT of constants, not %q", query)
}

func (c *conn) Exec(context.Context, string) error { return nil }
func (c *conn) Close() error                       { return nil }
func (c *conn) ID() uint64                         { return c.id }
func (c *conn) SetReadOnly()                       { c.readOnly.Store(true) }
func (c *conn) Stale() bool                        { return false }

// constants reads "SELECT c1, c2, ..." where each c is an integer or a
// single-quoted string (” for a quote), into int64s and strings.
func constants(query string) ([]any, bool) {
	rest, ok := cutKeyword(strings.TrimSpace(query), "SELECT")
	if !ok {
		return nil, false
	}
	var values []any
	for {
		rest = strings.TrimSpace(rest)
		var v any
		if v, rest, ok = constant(rest); !ok {
			return nil, false
		}
		values = append(values, v)
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return values, true
		}
		if rest[0] != ',' {
			return nil, false
		}
		rest = rest[1:]
	}
}

func cutKeyword(s, kw string) (string, bool) {
	if len(s) <= len(kw) || !strings.EqualFold(s[:len(kw)], kw) || !strings.ContainsRune(" \t\r\n", rune(s[len(kw)])) {
		return "", false
	}
	return s[len(kw):], true
}

// metadataQuery reports whether query is a SELECT from one of DuckDB's
// metadata functions, and how many columns its select list has.
func metadataQuery(query string) (columns int, ok bool) {
	rest, ok := cutKeyword(strings.TrimSpace(query), "SELECT")
	if !ok {
		return 0, false
	}
	from := strings.Index(rest, " FROM duckdb_")
	if from < 0 {
		return 0, false
	}
	depth := 0
	columns = 1
	for _, r := range rest[:from] {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			columns++
		}
	}
	return columns, true
}

// constant reads one constant at the start of s.
func constant(s string) (any, string, bool) {
	if strings.HasPrefix(s, "'") {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch {
			case s[i] != '\'':
				b.WriteByte(s[i])
			case i+1 < len(s) && s[i+1] == '\'':
				b.WriteByte('\'')
				i++
			default:
				return b.String(), s[i+1:], true
			}
		}
		return nil, "", false
	}
	end := strings.IndexFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' || r == '\n' })
	if end < 0 {
		end = len(s)
	}
	n, err := strconv.ParseInt(s[:end], 10, 32)
	if err != nil {
		return nil, "", false
	}
	return n, s[end:], true
}

// stmt is a prepared SELECT without parameters: of constants (one row of
// values), or of metadata (no rows, empty VARCHAR columns).
type stmt struct {
	values []any
	empty  int
}

func (s *stmt) Params() []sqltype.Type { return nil }

func (s *stmt) Columns() []sqltype.Column {
	if s.values == nil {
		cols := make([]sqltype.Column, s.empty)
		for i := range cols {
			cols[i] = sqltype.Column{Name: "column" + strconv.Itoa(i), Type: sqltype.Type{ID: sqltype.Varchar}}
		}
		return cols
	}
	cols := make([]sqltype.Column, len(s.values))
	for i, v := range s.values {
		cols[i] = sqltype.Column{Name: "?column?", Type: sqltype.Type{ID: sqltype.Varchar}}
		if _, ok := v.(int64); ok {
			cols[i].Type.ID = sqltype.Integer
		}
	}
	return cols
}

func (s *stmt) Result() sqltype.Result { return sqltype.ResultRows }

func (s *stmt) Bind(args []any) error {
	if len(args) > 0 {
		return sqlstate.New(sqlstate.ProtocolViolation, "bind message supplies %d parameters, but prepared statement requires 0", len(args))
	}
	return nil
}

func (s *stmt) Query(context.Context) (sqlfront.Rows, error) {
	cols := s.Columns()
	if s.values == nil {
		return &rows{cols: cols}, nil
	}
	fields := make([]arrow.Field, len(cols))
	arrays := make([]arrow.Array, len(cols))
	for i, v := range s.values {
		switch v := v.(type) {
		case int64:
			b := array.NewInt32Builder(memory.DefaultAllocator)
			b.Append(int32(v))
			fields[i], arrays[i] = arrow.Field{Name: cols[i].Name, Type: arrow.PrimitiveTypes.Int32}, b.NewArray()
			b.Release()
		case string:
			b := array.NewStringBuilder(memory.DefaultAllocator)
			b.Append(v)
			fields[i], arrays[i] = arrow.Field{Name: cols[i].Name, Type: arrow.BinaryTypes.String}, b.NewArray()
			b.Release()
		}
	}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, 1)
	for _, a := range arrays {
		a.Release()
	}
	return &rows{cols: cols, batch: batch}, nil
}

func (s *stmt) Close() {}

// rows is the result of a stmt: one batch of one row, or none.
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
