package storage

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	bindings "github.com/duckdb/duckdb-go-bindings"
	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// Result says what executing a statement produces (see sqltype.Result).
type Result = sqltype.Result

// What a statement produces, as sqltype names it.
const (
	ResultNone  = sqltype.ResultNone
	ResultCount = sqltype.ResultCount
	ResultRows  = sqltype.ResultRows
)

// Stmt is a prepared statement on one Conn. Binding and executing it runs
// the statement; it can be executed any number of times until Close.
type Stmt struct {
	conn   *Conn
	ps     mapping.PreparedStatement
	query  string
	params []Type
	cols   []Column
	result Result
	closed bool
	cache  resultCache
	// pathParams are the parameters whose values DuckDB takes as file
	// names; Bind checks them (see fileGuard).
	pathParams []pathRef
	// created is the row count of a CREATE TABLE ... AS that prepare ran
	// among the statements of an expanded one (see prepareExpanded),
	// whose last statement, the one prepared, reports none.
	created int64
}

// Prepare parses, binds and plans one statement without running it.
// Parameters are written $1, $2, ... (or ?). A statement text holding
// several statements is refused by DuckDB; split it first. A statement
// DuckDB expands into several (PIVOT without IN first creates an enum of
// the values found) runs all but the last of them now and prepares the
// last. On a read-only connection a statement that may write is refused
// with 42501. On every connection a statement that names one of Mallard's
// own files where DuckDB takes a file name (COPY, ATTACH, EXPORT and
// IMPORT DATABASE, the read_* functions, glob, FROM 'file'), or computes
// such a name, is refused with 42501, and so is, at Bind, a parameter
// that carries such a name (see fileGuard).
func (c *Conn) Prepare(ctx context.Context, query string) (*Stmt, error) {
	if err := c.checkRegistryWrite(ctx, query); err != nil {
		return nil, err
	}
	var params []pathRef
	if g := c.db.guard; g != nil {
		var err error
		if params, err = g.checkSQL(query, 0); err != nil {
			return nil, err
		}
	}
	s, err := c.prepare(ctx, query, c.ReadOnly())
	if s != nil {
		s.pathParams = params
	}
	return s, err
}

// PrepareOwn is Prepare of one of Mallard's own statements, which may
// name Mallard's own files (COPY FROM STDIN loads its spool file so).
func (c *Conn) PrepareOwn(ctx context.Context, query string) (*Stmt, error) {
	return c.prepare(ctx, query, c.ReadOnly())
}

func (c *Conn) prepare(ctx context.Context, query string, readOnly bool) (*Stmt, error) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	stop := c.watch(ctx)
	defer stop()
	if c.confined {
		query = sessionScoped(query, c.db.global)
	}
	var ps mapping.PreparedStatement
	if mapping.Prepare(c.conn, query, &ps) == mapping.StateError {
		msg := mapping.PrepareError(ps)
		mapping.DestroyPrepare(&ps)
		if strings.Contains(msg, multipleStatements) {
			return c.prepareExpanded(ctx, query, readOnly)
		}
		return nil, canceled(ctx, c.failure(errorFromMessage(msg, query)))
	}
	return c.prepared(ps, query, readOnly)
}

// multipleStatements is DuckDB's refusal to prepare a statement it expands
// into several.
const multipleStatements = "Cannot prepare multiple statements at once"

// prepared wraps ps, which prepared query, as a Stmt.
func (c *Conn) prepared(ps mapping.PreparedStatement, query string, readOnly bool) (*Stmt, error) {
	s := &Stmt{conn: c, ps: ps, query: query}
	s.describe()
	if readOnly {
		if err := s.checkReadOnly(); err != nil {
			s.Close()
			return nil, err
		}
	}
	if c.confined {
		if err := s.checkConfined(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// prepareExpanded prepares a statement DuckDB expands into several: it
// runs each but the last, then prepares the last.
func (c *Conn) prepareExpanded(ctx context.Context, query string, readOnly bool) (*Stmt, error) {
	var extracted mapping.ExtractedStatements
	n := mapping.ExtractStatements(c.conn, query, &extracted)
	defer mapping.DestroyExtracted(&extracted)
	if n == 0 {
		return nil, canceled(ctx, c.failure(errorFromMessage(mapping.ExtractStatementsError(extracted), query)))
	}
	prepare := func(i mapping.IdxT) (*Stmt, error) {
		var ps mapping.PreparedStatement
		if mapping.PrepareExtractedStatement(c.conn, extracted, i, &ps) == mapping.StateError {
			msg := mapping.PrepareError(ps)
			mapping.DestroyPrepare(&ps)
			return nil, canceled(ctx, c.failure(errorFromMessage(msg, query)))
		}
		return c.prepared(ps, query, readOnly)
	}
	created := int64(0)
	for i := range n - 1 {
		s, err := prepare(i)
		if err != nil {
			return nil, err
		}
		var res mapping.Result
		if mapping.ExecutePrepared(s.ps, &res) == mapping.StateError {
			err = canceled(ctx, c.failure(errorFromResult(&res, query)))
		} else if mapping.ResultStatementType(res) == mapping.StatementTypeCreate {
			created += createdRows(res)
		}
		mapping.DestroyResult(&res)
		s.Close()
		if err != nil {
			return nil, err
		}
	}
	s, err := prepare(n - 1)
	if s != nil {
		s.created = created
	}
	return s, err
}

func (s *Stmt) describe() {
	n := int(mapping.NParams(s.ps))
	s.params = make([]Type, n)
	for i := range n {
		lt := mapping.ParamLogicalType(s.ps, mapping.IdxT(i+1))
		if lt.Ptr == nil { // a named parameter ($name) has no type at a position
			s.params[i] = Type{ID: TypeInvalid}
			continue
		}
		s.params[i] = typeOf(lt)
		mapping.DestroyLogicalType(&lt)
	}
	m := int(mapping.PreparedStatementColumnCount(s.ps))
	s.cols = make([]Column, m)
	for i := range m {
		lt := mapping.PreparedStatementColumnLogicalType(s.ps, mapping.IdxT(i))
		s.cols[i] = Column{Name: mapping.PreparedStatementColumnName(s.ps, mapping.IdxT(i)), Type: typeOf(lt)}
		mapping.DestroyLogicalType(&lt)
	}
	s.result = resultOf(mapping.PreparedStatementType(s.ps), s.cols)
	if s.result != ResultRows || unbound(s.cols) {
		s.cols = nil
	}
}

// unbound reports whether DuckDB described a statement's result as its
// placeholder for columns it cannot know before the parameters' values
// are: one column of no type. A table function given a parameter as an
// argument is bound only when the statement runs.
func unbound(cols []Column) bool {
	return len(cols) == 1 && cols[0].Type.ID == TypeInvalid
}

// resultOf says what a statement of DuckDB type t with result columns cols
// produces. DuckDB describes a DML statement without RETURNING as one BIGINT
// column "Count".
func resultOf(t mapping.StatementType, cols []Column) Result {
	switch t {
	case mapping.StatementTypeSelect, mapping.StatementTypeExplain, mapping.StatementTypePragma,
		mapping.StatementTypeCall, mapping.StatementTypeExecute, mapping.StatementTypeRelation:
		return ResultRows
	case mapping.StatementTypeInsert, mapping.StatementTypeUpdate, mapping.StatementTypeDelete,
		bindings.StatementTypeMergeInto, mapping.StatementTypeCopy:
		if len(cols) == 1 && cols[0].Name == "Count" && cols[0].Type.ID == TypeBigInt {
			return ResultCount
		}
		return ResultRows
	}
	return ResultNone
}

// Params are the statement's parameter types as DuckDB inferred them;
// TypeInvalid or TypeAny where it could not.
func (s *Stmt) Params() []Type { return s.params }

// Columns are the result columns of a statement that returns rows; none
// while they depend on the values of its parameters (see unbound), when
// the result of Query has them.
func (s *Stmt) Columns() []Column { return s.cols }

// Result says what executing the statement produces.
func (s *Stmt) Result() Result { return s.result }

// Bind sets the parameters for the next execution. Each value is nil (NULL),
// bool, an integer, float32, float64, string or []byte; DuckDB casts it to
// the parameter's type, so a string may carry any type's text form.
func (s *Stmt) Bind(args []any) error {
	if len(args) != len(s.params) {
		return sqlstate.New(sqlstate.ProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(args), len(s.params))
	}
	if g := s.conn.db.guard; g != nil && len(s.pathParams) > 0 {
		if err := g.checkArgs(s.pathParams, args); err != nil {
			return err
		}
	}
	mapping.ClearBindings(s.ps)
	for i, a := range args {
		if mapping.StateError == s.bind(mapping.IdxT(i+1), a) {
			return sqlstate.New(sqlstate.InvalidParameterValue,
				"cannot bind parameter $%d (%T) to type %s", i+1, a, s.params[i])
		}
	}
	return nil
}

func (s *Stmt) bind(i mapping.IdxT, a any) mapping.State {
	switch v := a.(type) {
	case nil:
		return mapping.BindNull(s.ps, i)
	case bool:
		return mapping.BindBoolean(s.ps, i, v)
	case int8:
		return mapping.BindInt8(s.ps, i, v)
	case int16:
		return mapping.BindInt16(s.ps, i, v)
	case int32:
		return mapping.BindInt32(s.ps, i, v)
	case int64:
		return mapping.BindInt64(s.ps, i, v)
	case int:
		return mapping.BindInt64(s.ps, i, int64(v))
	case uint64:
		if v > math.MaxInt64 {
			return mapping.BindUInt64(s.ps, i, v)
		}
		return mapping.BindInt64(s.ps, i, int64(v))
	case float32:
		return mapping.BindFloat(s.ps, i, v)
	case float64:
		return mapping.BindDouble(s.ps, i, v)
	case string:
		return mapping.BindVarchar(s.ps, i, v)
	case []byte:
		return mapping.BindBlob(s.ps, i, v)
	}
	return mapping.BindVarchar(s.ps, i, fmt.Sprint(a))
}

// Query executes the statement with the bound parameters. Rows arrive as
// DuckDB produces them; the statement holds the connection until the
// returned Rows is closed. Canceling ctx interrupts the statement.
func (s *Stmt) Query(ctx context.Context) (*Rows, error) {
	if s.closed {
		return nil, ErrClosed
	}
	stop := s.conn.watch(ctx)
	var pending mapping.PendingResult
	if bindings.PendingPreparedStreaming(s.ps, &pending) == mapping.StateError {
		err := s.conn.failure(errorFromMessage(mapping.PendingError(pending), s.query))
		mapping.DestroyPending(&pending)
		stop()
		return nil, canceled(ctx, err)
	}
	var res mapping.Result
	var err error
	if !runTasks(pending) { // duckdb_execute_pending would only say the result is unsuccessful
		err = errorFromMessage(mapping.PendingError(pending), s.query)
	} else if mapping.ExecutePending(pending, &res) == mapping.StateError {
		err = errorFromResult(&res, s.query)
		mapping.DestroyResult(&res)
	}
	mapping.DestroyPending(&pending)
	if t := mapping.PreparedStatementType(s.ps); t == mapping.StatementTypeSet || t == mapping.StatementTypeVariableSet {
		s.conn.settingsGen++ // Arrow conversion settings may have changed
	}
	if err != nil {
		err = s.conn.failure(err)
		stop()
		return nil, canceled(ctx, err)
	}
	return newRows(ctx, s, res, stop)
}

// Close releases the prepared statement.
func (s *Stmt) Close() {
	if !s.closed {
		s.closed = true
		mapping.DestroyPrepare(&s.ps)
	}
}

// runTasks runs pending's tasks on this thread until its result is ready
// (true) or it failed (false), as duckdb_execute_pending does before it
// takes the result, but without its endless spin. DuckDB's loop asks for
// the next task without pause, and while the tasks left are on DuckDB's
// worker threads, such as a Mallard table function's waiting for its next
// row (a training's next epoch), it keeps a whole core busy for as long.
// Measured on train_recommender with workers := 1: the process kept two
// cores busy, one of them in that loop. Here, where no task is free, this
// thread keeps asking for spinFor, as a short query's result is ready
// that soon, and then sleeps, from pollMin doubling to pollMax, between
// asks.
func runTasks(pending mapping.PendingResult) bool {
	var idle time.Time // since when no task was free; zero while there were
	wait := pollMin
	for {
		switch bindings.PendingExecuteTask(pending) {
		case bindings.PendingStateResultReady:
			return true
		case bindings.PendingStateError:
			return false
		case bindings.PendingStateNoTasksAvailable:
			if idle.IsZero() {
				idle = time.Now()
			} else if time.Since(idle) > spinFor {
				time.Sleep(wait)
				wait = min(2*wait, pollMax)
			}
		default:
			idle, wait = time.Time{}, pollMin
		}
	}
}

// How runTasks waits while DuckDB's worker threads hold every task: it
// asks again at once for spinFor, then sleeps from pollMin, doubling, to
// at most pollMax, the latency this adds to a result that waits on a long
// task.
const (
	spinFor = 200 * time.Microsecond
	pollMin = 20 * time.Microsecond
	pollMax = time.Millisecond
)
