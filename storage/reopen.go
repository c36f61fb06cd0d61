package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
)

// After a fatal error (a failed write of its WAL or of a checkpoint, an
// exception it cannot undo) DuckDB invalidates the database instance: every
// later statement, on every connection, fails with a FATAL error until the
// database is opened again. What a transaction committed is in the file or
// its WAL, which opening the file replays; what was not committed is lost,
// as after a crash.
//
// Reopen opens the same file as a new instance. DuckDB keeps one instance
// per path in its instance cache, and the invalidated one stays alive (and
// cached) until the last connection to it closes, which a session, a
// training run or a prepared statement may delay for long; asking the cache
// for the path meanwhile waits for it. So the new instance is opened
// through a new cache, which duckdb-go's connector uses too (it reads
// duckdb.GetInstanceCache for every connector it makes). The old instance
// writes nothing more: DuckDB skips the checkpoint at shutdown of an
// invalidated database.

// invalidatedError marks DuckDB's FATAL errors: the database instance is
// invalidated and must be reopened.
type invalidatedError struct{ err *sqlstate.Error }

func (e invalidatedError) Error() string { return e.err.Error() }
func (e invalidatedError) Unwrap() error { return e.err }

// IsInvalidated reports whether err is DuckDB's report that the database
// is invalidated (its FATAL exception type), after which no statement runs
// until Reopen.
func IsInvalidated(err error) bool {
	var inv invalidatedError
	if errors.As(err, &inv) {
		return true
	}
	var de *duckdb.Error
	return errors.As(err, &de) && de.Type == duckdb.ErrorTypeFatal
}

// OnReopen adds f to what Reopen runs once the new instance is open, in the
// order added: whatever installed functions, types or catalog objects in
// the database's memory (rather than its file) installs them again.
func (d *DB) OnReopen(f func(ctx context.Context) error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.reopenHooks = append(d.reopenHooks, f)
}

// Reopen replaces an invalidated database instance with a new one on the
// same file, then runs the OnReopen functions; connections opened meanwhile
// wait for them. It does nothing, and reports false, when the instance in
// use is not invalidated (another caller reopened it first). Connections
// to the old instance keep failing: Stale tells them apart, and their
// owners must close them.
func (d *DB) Reopen(ctx context.Context) (bool, error) {
	d.reopening.Lock()
	defer d.reopening.Unlock()
	if !IsInvalidated(probe(ctx, d.SQL())) {
		return false, nil
	}
	started := time.Now()
	gate := make(chan struct{})
	defer close(gate)
	d.mu.Lock()
	oldDB, oldSQL := d.db, d.sqldb
	d.gate = gate
	d.mu.Unlock()
	cache := mapping.CreateInstanceCache()
	duckdb.GetInstanceCache = func() mapping.InstanceCache { return cache }
	var db mapping.Database
	sqldb, err := openInstance(d.path, &db)
	if err != nil {
		return false, fmt.Errorf("reopen database: %w", err)
	}
	d.mu.Lock()
	d.db, d.sqldb = db, sqldb
	d.generation.Add(1)
	hooks := append([]func(context.Context) error(nil), d.reopenHooks...)
	d.mu.Unlock()
	_ = oldSQL.Close()
	mapping.Close(&oldDB)
	if err := d.configure(ctx, d.cfg); err != nil {
		return true, fmt.Errorf("reopen database: %w", err)
	}
	if err := d.registerPGTypes(ctx); err != nil {
		return true, fmt.Errorf("reopen database: %w", err)
	}
	for _, f := range hooks {
		if err := f(ctx); err != nil {
			return true, fmt.Errorf("reopen database: %w", err)
		}
	}
	if d.log != nil {
		d.log.Info("database reopened", "path", d.path, "took", time.Since(started).Round(time.Millisecond))
	}
	return true, nil
}

// probe runs a statement that only an invalidated database refuses.
func probe(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "SELECT 1")
	return err
}

// Stale reports whether c is a connection to a database instance that
// Reopen has replaced: every statement on it fails, and it must be closed.
func (c *Conn) Stale() bool { return c.db != nil && c.generation != c.db.generation.Load() }

// waitReady waits until a Reopen in progress has run its OnReopen
// functions.
func (d *DB) waitReady() {
	d.mu.RLock()
	gate := d.gate
	d.mu.RUnlock()
	if gate != nil {
		<-gate
	}
}
