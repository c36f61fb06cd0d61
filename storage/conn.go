package storage

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
)

// ErrClosed is returned by operations on a closed connection.
var ErrClosed = errors.New("storage: connection is closed")

// interruptEvery is how often a canceled statement is interrupted again:
// DuckDB clears an interrupt that arrives between two of its tasks.
const interruptEvery = 100 * time.Millisecond

// Conn is one native DuckDB connection: its own transaction, temporary
// tables and settings. A Conn is used by one goroutine at a time, except
// Interrupt, which any goroutine may call.
type Conn struct {
	mu     sync.Mutex // guards conn against Close racing Interrupt
	conn   mapping.Connection
	closed bool
	// settingsGen counts SET statements run on the connection: cached
	// result schemas are rebuilt after one (it may change Arrow settings).
	settingsGen uint64
	db          *DB
	id          uint64
	ident       *identity
	generation  uint64 // the database instance c belongs to (see DB.Reopen)
	// confined says c refuses changes of server-wide settings (see ConfineSettings).
	confined bool
	// mlopsPath says whether c's schema or search path may hold the
	// registry's schema (see notePath).
	mlopsPath bool
}

// Connect opens a new native connection to the database.
func (d *DB) Connect() (*Conn, error) {
	d.waitReady()
	d.mu.RLock()
	var c mapping.Connection
	state := mapping.Connect(d.db, &c)
	generation := d.generation.Load()
	d.mu.RUnlock()
	if state == mapping.StateError {
		return nil, sqlstate.New(sqlstate.ConnectionFailure, "cannot open a DuckDB connection")
	}
	conn := &Conn{conn: c, db: d, generation: generation}
	if err := conn.identify(); err != nil {
		_ = conn.Close()
		return nil, err
	}
	return conn, nil
}

// Interrupt asks DuckDB to stop the statement running on c, if any. The
// statement then fails with SQLSTATE 57014.
func (c *Conn) Interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		mapping.Interrupt(c.conn)
	}
}

// Close closes the connection, rolling back any open transaction.
func (c *Conn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.db != nil {
		c.db.idents.Delete(c.id)
	}
	mapping.Disconnect(&c.conn)
	return nil
}

// Exec prepares and runs one of Mallard's own statements, discarding any
// rows. Unlike Prepare it runs on a read-only connection what the
// connection could not: Mallard's settings and transaction control. Like
// Prepare it refuses to write the registry and to name Mallard's own
// files (the statements a session's DDL becomes run here).
func (c *Conn) Exec(ctx context.Context, query string) error {
	if err := c.checkRegistryWrite(ctx, query); err != nil {
		return err
	}
	if g := c.db.guard; g != nil {
		if _, err := g.checkSQL(query, 0); err != nil {
			return err
		}
	}
	st, err := c.prepare(ctx, query, false)
	if err != nil {
		return err
	}
	defer st.Close()
	rows, err := st.Query(ctx)
	if err != nil {
		return err
	}
	return rows.Close()
}

// watch interrupts c whenever ctx is done, until the returned stop is called.
// stop waits for the interrupting goroutine, so no interrupt meant for this
// statement can reach the next one, and, where ctx is done, for the work
// Mallard's functions hold (see Caller.Hold).
func (c *Conn) watch(ctx context.Context) (stop func()) {
	call := c.begin(ctx)
	done := make(chan struct{})
	finished := make(chan struct{})
	unregister := context.AfterFunc(ctx, func() {
		defer close(finished)
		t := time.NewTicker(interruptEvery)
		defer t.Stop()
		for {
			c.Interrupt()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() {
		close(done)
		if !unregister() {
			<-finished
			call.holds.Wait()
		}
		c.end(call)
	}
}

// canceled turns an error caused by canceling ctx into the error that says
// why: the cause ctx was canceled with if that is an *sqlstate.Error (the
// front end uses this to say "statement timeout" or "user request"), else
// a plain 57014.
func canceled(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	var cause *sqlstate.Error
	if errors.As(context.Cause(ctx), &cause) {
		return cause
	}
	return &sqlstate.Error{Code: sqlstate.QueryCanceled, Message: "canceling statement due to user request"}
}
