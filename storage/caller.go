package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mallard/mallard/sqlstate"
)

// CallerVariable is the DuckDB session variable in which every native
// connection holds its id. DuckDB calls a table function without saying
// which connection's statement called it, so the planner passes
// getvariable(CallerVariable) to Mallard's table functions as a hidden
// named argument, and the function finds its caller with DB.Caller.
const CallerVariable = "mallard_connection"

// Caller is the statement running on one native connection, as seen by a
// Mallard function that statement called.
type Caller struct {
	db *DB
	id uint64
}

// callState is what the registry holds for a connection while it runs a statement.
type callState struct {
	ctx     context.Context
	mu      sync.Mutex
	failure error // the typed error a function failed the statement with
}

// Caller returns the statement running on the connection with the given
// id. Its Context is context.Background when no statement of a Mallard
// session is running there (a call through database/sql, for example).
func (d *DB) Caller(id uint64) Caller { return Caller{db: d, id: id} }

// ID is the calling connection's id: the session, in Mallard's records.
func (c Caller) ID() uint64 { return c.id }

// Context is the context of the calling statement: canceled when the
// client cancels it, times out or goes away.
func (c Caller) Context() context.Context {
	if st := c.state(); st != nil {
		return st.ctx
	}
	return context.Background()
}

// Fail records err as the reason the calling statement fails, and returns
// it. DuckDB passes only an error's text back through its C API; the
// statement's connection reports the recorded error instead, so that the
// client sees the function's own SQLSTATE, detail and hint.
func (c Caller) Fail(err error) error {
	if st := c.state(); st != nil && err != nil {
		st.mu.Lock()
		if st.failure == nil {
			st.failure = err
		}
		st.mu.Unlock()
	}
	return err
}

func (c Caller) state() *callState {
	if c.db == nil || c.id == 0 {
		return nil
	}
	v, ok := c.db.calls.Load(c.id)
	if !ok {
		return nil
	}
	return v.(*callState)
}

// begin registers ctx as the context of the statement c now runs.
func (c *Conn) begin(ctx context.Context) *callState {
	st := &callState{ctx: ctx}
	if c.db != nil {
		c.db.calls.Store(c.id, st)
	}
	return st
}

// end unregisters the statement begun with st.
func (c *Conn) end(st *callState) {
	if c.db != nil {
		c.db.calls.CompareAndDelete(c.id, st)
	}
}

// failure is the error a failed statement reports: the one a Mallard
// function recorded with Caller.Fail, if it did, else err.
func (c *Conn) failure(err error) error {
	if c.db == nil || err == nil {
		return err
	}
	v, ok := c.db.calls.Load(c.id)
	if !ok {
		return err
	}
	st := v.(*callState)
	st.mu.Lock()
	defer st.mu.Unlock()
	var typed *sqlstate.Error
	if st.failure != nil && errors.As(st.failure, &typed) {
		return st.failure
	}
	return err
}

// identify gives c its id and stores it in the session variable the planner reads.
func (c *Conn) identify() error {
	c.id = c.db.nextConn.Add(1)
	return c.Exec(context.Background(), fmt.Sprintf("SET VARIABLE %s = %d", CallerVariable, c.id))
}

// ID is the connection's id, which its statements pass to Mallard's
// functions through CallerVariable.
func (c *Conn) ID() uint64 { return c.id }

// Notifier delivers a notice to the client of a statement.
type Notifier func(message string)

type notifierKey struct{}

// WithNotifier returns ctx carrying n: the front end gives it to each
// statement's context, and Mallard's functions reach it through Caller.Notice.
func WithNotifier(ctx context.Context, n Notifier) context.Context {
	return context.WithValue(ctx, notifierKey{}, n)
}

// Notice sends message to the calling statement's client as a NOTICE, if
// the statement came from a client that takes notices.
func (c Caller) Notice(message string) {
	if n, ok := c.Context().Value(notifierKey{}).(Notifier); ok {
		n(message)
	}
}
