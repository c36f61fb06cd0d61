package storage

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mallard/mallard/sqlstate"
)

// CallerVariable is the DuckDB session variable in which every native
// connection holds its token: its id and a secret. DuckDB calls a table
// function without saying which connection's statement called it, so the
// planner passes getvariable(CallerVariable) to Mallard's table functions
// as a hidden named argument, and the function finds its caller with
// DB.CallerOf. A client can pass any text in that argument, or call a
// function by the name DuckDB knows it by; only the secret, which no other
// connection can read, makes the caller who it says it is.
const CallerVariable = "mallard_connection"

// Caller is the statement running on one native connection, as seen by a
// Mallard function that statement called.
type Caller struct {
	db    *DB
	id    uint64
	ident *identity // nil for a caller whose token was missing or wrong
}

// identity is what the database knows of one native connection.
type identity struct {
	secret   string
	readOnly atomic.Bool
}

// callState is what the registry holds for a connection while it runs a statement.
type callState struct {
	ctx     context.Context
	mu      sync.Mutex
	failure error          // the typed error a function failed the statement with
	holds   sync.WaitGroup // work a canceled statement waits for (see Caller.Hold)
}

// CallerOf returns the caller whose token (the value of CallerVariable on
// its connection) is given. A token that names no open connection, or
// names one with the wrong secret, gives an unknown caller: id 0,
// read-only, with no statement context. Its Context is
// context.Background also when no statement of a Mallard session is
// running on the connection.
func (d *DB) CallerOf(token string) Caller {
	idText, secret, _ := strings.Cut(token, ":")
	id, err := strconv.ParseUint(idText, 10, 64)
	if err != nil || id == 0 {
		return Caller{db: d}
	}
	v, ok := d.idents.Load(id)
	if !ok {
		return Caller{db: d}
	}
	ident := v.(*identity)
	if subtle.ConstantTimeCompare([]byte(secret), []byte(ident.secret)) != 1 {
		return Caller{db: d}
	}
	return Caller{db: d, id: id, ident: ident}
}

// ID is the calling connection's id: the session, in Mallard's records.
// It is 0 for an unknown caller.
func (c Caller) ID() uint64 { return c.id }

// ReadOnly reports whether the caller may only read: its connection was
// made read-only (see Conn.SetReadOnly), or the caller is unknown.
// Mallard's functions that write (train, save a scaler, deploy) refuse
// read-only callers.
func (c Caller) ReadOnly() bool { return c.ident == nil || c.ident.readOnly.Load() }

// Read is DB.Read with the caller's rights: on a read-only connection
// when the caller is read-only, so that a query a function runs for the
// caller cannot write on its behalf.
func (c Caller) Read(ctx context.Context, query string, setup ...string) (*Reader, error) {
	return c.db.read(ctx, query, setup, nil, c.ReadOnly())
}

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

// Hold marks work the calling statement started, such as a training run,
// that must wind up before a canceled statement reports its cancel: when
// the client cancels, times out or goes away, the statement's error is
// sent only once every hold is released, so that a session that looks
// next sees the run already ended (canceled), not still training. The
// caller releases the hold when the work has wound up, at the latest once
// the statement's context is done; a statement that ends otherwise does not
// wait for it. Release may be called more than once.
func (c Caller) Hold() (release func()) {
	st := c.state()
	if st == nil {
		return func() {}
	}
	st.holds.Add(1)
	return sync.OnceFunc(st.holds.Done)
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
// function recorded with Caller.Fail, if it did, else err, with the
// sandbox's hint if it is a refusal of external access.
func (c *Conn) failure(err error) error {
	if c.db == nil || err == nil {
		return err
	}
	if ae, ok := err.(accessError); ok && ae.err.Hint == "" {
		ae.err.Hint = c.db.sandboxHint
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

// identify gives c its id and secret, and stores them as its token in the
// session variable the planner reads.
func (c *Conn) identify() error {
	secret := make([]byte, 16)
	if _, err := rand.Read(secret); err != nil {
		return fmt.Errorf("connection secret: %w", err)
	}
	c.id = c.db.nextConn.Add(1)
	c.ident = &identity{secret: hex.EncodeToString(secret)}
	c.db.idents.Store(c.id, c.ident)
	return c.Exec(context.Background(), fmt.Sprintf("SET VARIABLE %s = '%d:%s'", CallerVariable, c.id, c.ident.secret))
}

// SetReadOnly makes c read-only for good: Prepare refuses statements that
// write or change settings (see Stmt.checkReadOnly), and Mallard's
// functions called from c see a read-only Caller. Exec, which runs
// Mallard's own statements, is not restricted.
func (c *Conn) SetReadOnly() { c.ident.readOnly.Store(true) }

// ReadOnly reports whether SetReadOnly was called.
func (c *Conn) ReadOnly() bool { return c.ident != nil && c.ident.readOnly.Load() }

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
