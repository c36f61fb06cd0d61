//go:build duckdb_arrow

// Package registry is Mallard's model registry: model versions, training
// runs and their metrics, artifacts, reports and deployments, kept in the
// mlops schema of the database. It owns the lifecycle of a training run
// (Begin, then Epoch and Checkpoint, then Finish or Fail) and of a
// version (Deploy, Rollback, Drop), and the reads the SQL functions and
// the dashboard make of them. It knows nothing of SQL functions or the
// wire: its errors wrap the sentinels of errors.go, and callers word them.
package registry

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/storage"
)

// schema are the registry's tables in the mlops schema. A model
// version's row and its artifact change in one transaction, so a row never
// points at a partial artifact; training_metrics rows are committed as
// epochs end, so other sessions see them live.
var schema = []string{
	`CREATE TABLE IF NOT EXISTS mlops.models (
		name VARCHAR NOT NULL,
		version INTEGER NOT NULL,
		kind VARCHAR NOT NULL,
		status VARCHAR NOT NULL,
		deployed BOOLEAN NOT NULL DEFAULT false,
		run_id BIGINT NOT NULL,
		created_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp,
		finished_at TIMESTAMPTZ,
		hyperparameters VARCHAR NOT NULL,
		metrics VARCHAR,
		test_loss DOUBLE,
		val_loss DOUBLE,
		source VARCHAR NOT NULL,
		fingerprint VARCHAR NOT NULL,
		rows BIGINT NOT NULL,
		entities BIGINT NOT NULL,
		scaler VARCHAR,
		mallard_version VARCHAR NOT NULL,
		checkpoint_epoch INTEGER,
		artifact_size BIGINT,
		artifact_checksum VARCHAR)`,
	`CREATE TABLE IF NOT EXISTS mlops.training_runs (
		run_id BIGINT NOT NULL,
		model VARCHAR NOT NULL,
		version INTEGER,
		kind VARCHAR NOT NULL,
		status VARCHAR NOT NULL,
		queued_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp,
		started_at TIMESTAMPTZ,
		finished_at TIMESTAMPTZ,
		epochs INTEGER NOT NULL,
		epochs_done INTEGER NOT NULL DEFAULT 0,
		best_epoch INTEGER,
		best_test_loss DOUBLE,
		error VARCHAR,
		session BIGINT,
		resumed_from VARCHAR)`,
	`CREATE TABLE IF NOT EXISTS mlops.training_metrics (
		run_id BIGINT NOT NULL,
		epoch INTEGER NOT NULL,
		train_loss DOUBLE NOT NULL,
		test_loss DOUBLE NOT NULL,
		elapsed_ms DOUBLE NOT NULL,
		extra VARCHAR,
		recorded_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp)`,
	`CREATE TABLE IF NOT EXISTS mlops.artifacts (
		name VARCHAR NOT NULL,
		version INTEGER NOT NULL,
		epoch INTEGER NOT NULL,
		final BOOLEAN NOT NULL,
		size BIGINT NOT NULL,
		checksum VARCHAR NOT NULL,
		data BLOB NOT NULL,
		part INTEGER NOT NULL DEFAULT 0)`,
	// Before version 0.4 an artifact was one row.
	`ALTER TABLE mlops.artifacts ADD COLUMN IF NOT EXISTS part INTEGER DEFAULT 0`,
	// Before version 0.5 no version had a validation loss.
	`ALTER TABLE mlops.models ADD COLUMN IF NOT EXISTS val_loss DOUBLE`,
	// A report is what the dashboard shows of a version that finished
	// training: JSON, written with the version's status.
	`CREATE TABLE IF NOT EXISTS mlops.reports (
		name VARCHAR NOT NULL,
		version INTEGER NOT NULL,
		data VARCHAR NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS mlops.deployments (
		seq BIGINT NOT NULL,
		name VARCHAR NOT NULL,
		version INTEGER NOT NULL,
		action VARCHAR NOT NULL,
		deployed_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp,
		undone BOOLEAN NOT NULL DEFAULT false)`,
}

// Statuses of models and training runs that Go code sets or checks; the
// rest (queued, succeeded, interrupted) appear only in the SQL that sets
// them. Models: training, ready, failed, canceled, interrupted. Runs:
// queued, training, succeeded, failed, canceled, interrupted.
const (
	StatusTraining = "training"
	StatusReady    = "ready"
	StatusFailed   = "failed"
	StatusCanceled = "canceled"
)

// Registry keeps model versions, training runs and their metrics,
// artifacts and deployments in the mlops schema of a database. One
// process has one Registry per database: it serialises the writes.
type Registry struct {
	db      *storage.DB
	runs    *mlops.Runs
	version string // Mallard's, recorded with every model

	// mu serialises the registry's writes: DuckDB fails a transaction that
	// updates a row another open transaction updated, and every write comes
	// from this process.
	mu sync.Mutex

	cache modelCache
}

// Options configure New.
type Options struct {
	// MaxTrainings is how many training runs may run at once; the others
	// wait in a queue. 0 means the number of CPUs.
	MaxTrainings int
	// Version is Mallard's, recorded with every model.
	Version string
	// Log records each training run's queueing, start and end; nil records nothing.
	Log *slog.Logger
}

// New returns the registry of db. Setup creates its tables.
func New(db *storage.DB, opts Options) *Registry {
	if opts.MaxTrainings <= 0 {
		opts.MaxTrainings = runtime.NumCPU()
	}
	return &Registry{db: db, runs: mlops.NewRuns(opts.MaxTrainings, opts.Log), version: opts.Version}
}

// Setup creates the registry's tables where they are missing, keeping
// the rows of a models table from before the registry, and marks the
// training runs a stopped server left unfinished as interrupted. It is
// safe to call on a database that has them from an earlier run.
func (r *Registry) Setup(ctx context.Context) error {
	conn, err := r.db.SQL().Conn(ctx)
	if err != nil {
		return fmt.Errorf("create mlops schema: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS mlops"); err != nil {
		return fmt.Errorf("create mlops schema: %w", err)
	}
	if err := migrate(ctx, conn); err != nil {
		return fmt.Errorf("migrate mlops schema: %w", err)
	}
	for _, q := range schema {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create mlops schema: %w", err)
		}
	}
	// DuckDB 1.5.5 cannot replay an ALTER TABLE of the mlops schema from
	// the WAL ("GetDefaultDatabase with no default database set"), so a
	// server killed before its next checkpoint could not open the file
	// again. Checkpointing here keeps the migrations out of the WAL; if it
	// fails (another process's transaction), the server still runs.
	_, _ = conn.ExecContext(ctx, "CHECKPOINT")
	if err := r.recover(ctx); err != nil {
		return fmt.Errorf("recover training runs: %w", err)
	}
	return nil
}

// Cancel stops training run id at its next batch with cause; false if
// this process is not running it (it ended, or never was).
func (r *Registry) Cancel(id int64, cause error) bool { return r.runs.Cancel(id, cause) }

// modelCache keeps the last few decoded model artifacts, by version and
// checksum, most recently used first.
type modelCache struct {
	mu      sync.Mutex
	entries []cached
}

type cached struct {
	key   string
	value any
}

// cacheSize is how many decoded models modelCache keeps.
const cacheSize = 4

func (c *modelCache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			return e.value, true
		}
	}
	return nil, false
}

func (c *modelCache) put(key string, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = slices.DeleteFunc(c.entries, func(e cached) bool { return e.key == key })
	c.entries = slices.Insert(c.entries, 0, cached{key, value})
	if len(c.entries) > cacheSize {
		clear(c.entries[cacheSize:])
		c.entries = c.entries[:cacheSize]
	}
}

// migrate renames a models table from before the registry, so that its
// rows are kept and the registry's table can be created.
func migrate(ctx context.Context, conn *sql.Conn) error {
	var n int
	err := conn.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables t WHERE table_schema = 'mlops' AND table_name = 'models'
		AND NOT EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = 'mlops' AND c.table_name = 'models' AND c.column_name = 'status')`).Scan(&n)
	if err != nil || n == 0 {
		return err
	}
	_, err = conn.ExecContext(ctx, "ALTER TABLE mlops.models RENAME TO models_before_registry")
	return err
}

// recover marks the runs a stopped server left queued or training, and
// their model versions, interrupted. Their last checkpoint stays usable.
func (r *Registry) recover(ctx context.Context) error {
	return r.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE mlops.training_runs SET status = 'interrupted', finished_at = current_timestamp,
			error = 'the server stopped while the run was ' || status WHERE status IN ('queued', 'training')`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE mlops.models SET status = 'interrupted', finished_at = current_timestamp WHERE status = 'training'`); err != nil {
			return err
		}
		// Parts of an artifact whose storing the stop cut short.
		_, err := tx.ExecContext(ctx, `DELETE FROM mlops.artifacts a WHERE NOT EXISTS (SELECT 1 FROM mlops.models m
			WHERE m.name = a.name AND m.version = a.version AND m.artifact_checksum = a.checksum)`)
		return err
	})
}

// tx runs f in a transaction under the registry's write lock.
func (r *Registry) tx(ctx context.Context, f func(*sql.Tx) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	tx, err := r.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	return nil
}

// queryer is what runs a query returning one row: the database or a
// transaction of it.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
