// Package registrystore is the model registry's SQL: the tables of the
// mlops schema and every statement that reads or writes them, over
// storage's database. Package mlops/registry keeps the lifecycle and makes
// the decisions; it reaches these statements through the Store interface
// it declares, which Store implements. Reads report a missing row with
// found false, not an error; the registry words the errors.
package registrystore

import (
	"context"
	"database/sql"
	"fmt"

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

// Store is the registry's tables in a database.
type Store struct {
	db *storage.DB
	q
}

// New returns the store of db; Setup creates its tables.
func New(db *storage.DB) *Store { return &Store{db: db, q: q{db.SQL()}} }

// queryer runs statements: the database or one of its transactions.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// q holds the reads a transaction makes as well as the store.
type q struct{ x queryer }

// Tx is one transaction of the registry's (see Store.Update).
type Tx struct{ q }

// Setup creates the mlops schema and its tables where they are missing,
// keeping the rows of a models table from before the registry (renamed
// models_before_registry). It is safe to call on a database that has them
// from an earlier run.
func (s *Store) Setup(ctx context.Context) error {
	conn, err := s.db.SQL().Conn(ctx)
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
	return nil
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

// Update runs f in one transaction, committed when f returns nil and
// rolled back otherwise. The caller serialises its writes: DuckDB fails a
// transaction that updates a row another open transaction updated.
func (s *Store) Update(ctx context.Context, f func(tx *Tx) error) error {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	if err := f(&Tx{q{tx}}); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	return nil
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func ptr[T any](v T, valid bool) *T {
	if !valid {
		return nil
	}
	return &v
}
