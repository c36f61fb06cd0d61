package sqlfront

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqltype"
)

// Planner turns client SQL into the statements a session runs. Package
// planner's *Planner (the Postgres parser, cgo) is the one the server
// uses; sqlfront sees it only through this interface, and so builds
// without cgo. Its methods are called from every session's goroutine.
type Planner interface {
	// Plan splits a simple-Query string into planned statements.
	Plan(query string) []plan.Statement
	// PlanParse plans the statement of an extended-protocol Parse whose
	// client declared parameter types: paramTypes[i] is the engine type
	// $i+1 is cast to ("" for none).
	PlanParse(text string, paramTypes []string) plan.Statement
	// Fingerprint groups text with every statement that differs from it
	// only in constants, whitespace and comments (pg_stat_statements'
	// queryid), and returns text with its constants replaced by $1,
	// $2...; text the planner cannot read is its own group, kept as
	// written.
	Fingerprint(text string) (id int64, normalized string)
}

// Engine is the database sqlfront serves: what runs the statements of
// every session. Package server adapts storage.DB to it (server.Engine);
// sqlfront sees DuckDB only through these interfaces.
type Engine interface {
	// Connect opens a connection for one session.
	Connect() (Conn, error)
	// Exec runs one statement of the server's own, outside any session.
	Exec(ctx context.Context, query string) error
	// WithNotifier returns ctx carrying notify, which the engine's
	// functions call to send a notice to the client of the statement
	// run under ctx.
	WithNotifier(ctx context.Context, notify func(message string)) context.Context
	// IsInvalidated reports whether err says the engine invalidated its
	// database after a fatal error, after which no statement runs until
	// Reopen.
	IsInvalidated(err error) bool
	// Reopen replaces an invalidated database with a new one on the same
	// file and runs the OnReopen functions; it reports false when another
	// caller reopened it first.
	Reopen(ctx context.Context) (bool, error)
	// OnReopen adds f to what Reopen runs once the database is open again.
	OnReopen(f func(ctx context.Context) error)
	// ReadOnlyError is the error the engine reports when a read-only
	// connection tries what; a session refuses the writes the planner
	// recognises with the same error before they reach the engine.
	ReadOnlyError(what string) error
	// SpoolDir is the directory for temporary files such as COPY's.
	SpoolDir() string
	// Reserve takes n bytes of the server's memory budget for what (a
	// phrase naming the buffer), lowering what the engine itself may use
	// by as much, before the caller allocates them; release gives them
	// back. It fails with 53200 when they do not fit.
	Reserve(ctx context.Context, n int64, what string) (release func(), err error)
}

// Conn is one session's connection to the engine, used by the session's
// goroutine; ID and Stale may be called from any goroutine. A statement
// stops when the context it runs under is done.
type Conn interface {
	// Prepare parses and plans one statement without running it.
	Prepare(ctx context.Context, query string) (Stmt, error)
	// PrepareOwn is Prepare of a statement the server wrote, which may
	// name the server's own files (COPY FROM STDIN's spool file), where
	// Prepare refuses them.
	PrepareOwn(ctx context.Context, query string) (Stmt, error)
	// Exec runs one of Mallard's own statements, discarding any rows;
	// on a read-only connection it runs what Prepare would refuse
	// (settings, transaction control).
	Exec(ctx context.Context, query string) error
	// Close ends the connection.
	Close() error
	// ID identifies the connection to the engine's functions.
	ID() uint64
	// SetReadOnly restricts the connection to statements that do not
	// write (a read-only role's session); it cannot be undone.
	SetReadOnly()
	// Stale reports whether the connection belongs to a database that
	// Reopen has replaced: its owner must close it.
	Stale() bool
}

// Stmt is a prepared statement on one Conn, executable until Close.
type Stmt interface {
	// Params are the types of the statement's parameters, $1 first.
	Params() []sqltype.Type
	// Columns are the result columns, where the statement returns rows;
	// none where they are known only once it runs (they depend on the
	// values of its parameters), when Rows has them.
	Columns() []sqltype.Column
	// Result says whether executing it produces rows, a count or nothing.
	Result() sqltype.Result
	// Bind sets the parameters' values for the next Query.
	Bind(args []any) error
	// Query executes the statement and streams its result.
	Query(ctx context.Context) (Rows, error)
	// Close releases the statement; it cannot be executed again.
	Close()
}

// Rows is the streaming result of one execution: Next fetches the next
// batch, and nothing before the current batch is kept. Close must be
// called, and ends the execution.
type Rows interface {
	// Result says whether the execution produced rows, a count or nothing.
	Result() sqltype.Result
	// Columns are the result's columns when Result is ResultRows.
	Columns() []sqltype.Column
	// RowsAffected is the count a statement that changes rows reports.
	RowsAffected() int64
	// Next fetches the next batch; false at the end or on an error (Err).
	Next() bool
	// Batch is the current batch, valid until the next Next or Close.
	Batch() arrow.RecordBatch
	Err() error
	Close() error
}
