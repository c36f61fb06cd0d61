//go:build duckdb_arrow

package functions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// registrySchema are the registry's tables in the mlops schema. A model
// version's row and its artifact change in one transaction, so a row never
// points at a partial artifact; training_metrics rows are committed as
// epochs end, so other sessions see them live.
var registrySchema = []string{
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
	statusTraining = "training"
	statusReady    = "ready"
	statusFailed   = "failed"
	statusCanceled = "canceled"
)

// registry keeps model versions, training runs and their metrics, artifacts
// and deployments in the mlops schema of the database.
type registry struct {
	db      *storage.DB
	runs    *mlops.Runs
	version string // Mallard's, recorded with every model

	// mu serialises the registry's writes: DuckDB fails a transaction that
	// updates a row another open transaction updated, and every write comes
	// from this process.
	mu sync.Mutex

	cache modelCache
}

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
func (r *registry) recover(ctx context.Context) error {
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
func (r *registry) tx(ctx context.Context, f func(*sql.Tx) error) error {
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

// runSpec is what a training run records about itself before it starts.
type runSpec struct {
	kind, name  string
	params      any // the hyperparameters, as JSON
	source      string
	fingerprint string
	rows        int64
	entities    int64
	scaler      string
	epochs      int
	resumedFrom string
	deploy      string // auto, always or never
	session     uint64
}

// trainingRun is one run of a training function, from queued to finished.
type trainingRun struct {
	reg     *registry
	id      int64
	version int
	spec    runSpec
	ctx     context.Context // ends when the statement does or mlops.cancel names the run
	untrack func()
	release func()

	bestEpoch     int
	bestTest      float64
	bestSelection float64
}

// begin records a run as queued, waits for a training slot, then gives
// the run the next version of its model and records both as training.
func (r *registry) begin(ctx context.Context, spec runSpec) (*trainingRun, error) {
	params, err := json.Marshal(spec.params)
	if err != nil {
		return nil, err
	}
	run := &trainingRun{reg: r, spec: spec, bestTest: math.Inf(1), bestSelection: math.Inf(1)}
	err = r.tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(run_id), 0) + 1 FROM mlops.training_runs").Scan(&run.id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO mlops.training_runs (run_id, model, kind, status, epochs, session, resumed_from)
			VALUES (?, ?, ?, 'queued', ?, ?, ?)`, run.id, spec.name, spec.kind, spec.epochs, spec.session, nullIfEmpty(spec.resumedFrom))
		if err == nil { // cancelable before any session can see it
			run.ctx, run.untrack = r.runs.Track(ctx, run.id)
		}
		return err
	})
	if err == nil {
		r.runs.Log().Info("training run queued", "run_id", run.id, "model", spec.name, "kind", spec.kind, "session", spec.session)
	}
	if err != nil {
		if run.untrack != nil {
			run.untrack()
		}
		return nil, fmt.Errorf("record training run: %w", err)
	}
	if run.release, err = r.runs.Acquire(run.ctx); err != nil {
		run.end(err, nil)
		return nil, err
	}
	err = r.tx(run.ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) + 1 FROM mlops.models WHERE name = ?", spec.name).Scan(&run.version); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO mlops.models (name, version, kind, status, run_id, hyperparameters, source,
			fingerprint, rows, entities, scaler, mallard_version) VALUES (?, ?, ?, 'training', ?, ?, ?, ?, ?, ?, ?, ?)`,
			spec.name, run.version, spec.kind, run.id, string(params), spec.source, spec.fingerprint, spec.rows, spec.entities,
			nullIfEmpty(spec.scaler), r.version); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE mlops.training_runs SET status = 'training', version = ?, started_at = current_timestamp
			WHERE run_id = ?`, run.version, run.id)
		return err
	})
	if err != nil {
		run.end(err, nil)
		return nil, fmt.Errorf("record model version: %w", err)
	}
	r.runs.Log().Info("training run started", "run_id", run.id, "model", spec.name, "version", run.version)
	return run, nil
}

// ref is the run's model version.
func (t *trainingRun) ref() mlops.Ref { return mlops.Ref{Name: t.spec.name, Version: t.version} }

// epoch records an epoch's losses, committed at once so that other
// sessions see them while training goes on, and reports whether its
// selection loss (the validation loss where the model has one, else the
// test loss) is the lowest so far. The run's best_test_loss is the test
// loss of that epoch.
func (t *trainingRun) epoch(epoch int, trainLoss, testLoss, selection, elapsedMS float64, extra any) (bool, error) {
	best := selection < t.bestSelection
	if best {
		t.bestEpoch, t.bestTest, t.bestSelection = epoch, testLoss, selection
	}
	var extraJSON any
	if extra != nil {
		b, err := json.Marshal(extra)
		if err != nil {
			return false, err
		}
		extraJSON = string(b)
	}
	ctx := context.WithoutCancel(t.ctx)
	return best, t.reg.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO mlops.training_metrics (run_id, epoch, train_loss, test_loss, elapsed_ms, extra) VALUES (?, ?, ?, ?, ?, ?)",
			t.id, epoch, trainLoss, testLoss, elapsedMS, extraJSON); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "UPDATE mlops.training_runs SET epochs_done = ?, best_epoch = ?, best_test_loss = ? WHERE run_id = ?",
			epoch, t.bestEpoch, t.bestTest, t.id)
		return err
	})
}

// checkpoint stores the model after epoch as the version's artifact.
func (t *trainingRun) checkpoint(epoch int, data []byte) error {
	ctx := context.WithoutCancel(t.ctx)
	sum, err := t.reg.writeParts(ctx, t.ref(), epoch, false, data)
	if err != nil {
		return err
	}
	return t.reg.tx(ctx, func(tx *sql.Tx) error { return t.reg.pointTo(ctx, tx, t.ref(), epoch, len(data), sum) })
}

// artifactPart is the most bytes of an artifact one row of
// mlops.artifacts holds.
const artifactPart = 8 << 20

// writeParts stores data as an artifact of ref, in parts of artifactPart
// bytes, each committed on its own, and returns its checksum. DuckDB
// holds a transaction's writes, and on commit copies of them, in memory:
// committing a 333 MB artifact at once raised the server's resident set by
// more than a gigabyte. The parts stay unused until pointTo makes the
// model row point at their checksum; parts no row points at (a crash in
// between) are removed at startup (see recover).
func (r *registry) writeParts(ctx context.Context, ref mlops.Ref, epoch int, final bool, data []byte) (string, error) {
	sum := mlops.Checksum(data)
	for part := 0; part == 0 || part*artifactPart < len(data); part++ {
		chunk := data[part*artifactPart : min((part+1)*artifactPart, len(data))]
		err := r.tx(ctx, func(tx *sql.Tx) error {
			if part == 0 { // the same bytes stored before, as by an identical checkpoint
				if _, err := tx.ExecContext(ctx, "DELETE FROM mlops.artifacts WHERE name = ? AND version = ? AND checksum = ?",
					ref.Name, ref.Version, sum); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO mlops.artifacts (name, version, epoch, final, size, checksum, data, part)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, ref.Name, ref.Version, epoch, final, len(data), sum, chunk, part)
			return err
		})
		if err != nil {
			return "", fmt.Errorf("store artifact of %s: %w", ref, err)
		}
	}
	return sum, nil
}

// pointTo makes ref's model row point at the artifact of checksum sum,
// which writeParts stored, and removes ref's other artifacts.
func (r *registry) pointTo(ctx context.Context, tx *sql.Tx, ref mlops.Ref, epoch, size int, sum string) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM mlops.artifacts WHERE name = ? AND version = ? AND checksum <> ?", ref.Name, ref.Version, sum); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE mlops.models SET checkpoint_epoch = ?, artifact_size = ?, artifact_checksum = ?
		WHERE name = ? AND version = ?`, epoch, size, sum, ref.Name, ref.Version)
	return err
}

// finished is a successful run's result.
type finished struct {
	artifact []byte
	epoch    int      // the last epoch trained
	metrics  any      // as JSON: the model's and the baselines' metrics
	testLoss float64  // the metric deployment compares without valLoss: lower is better
	valLoss  *float64 // the validation loss deployment compares, where there is one
	report   any      // as JSON: what the dashboard shows of the version
}

// end records how the run ended: with res on success, else with cause as
// canceled (when the run's context ended) or failed. A failed version
// keeps no artifact; a canceled one keeps its last checkpoint. A
// successful version deploys itself as its deploy option says. It returns
// a message for the caller, or "".
func (t *trainingRun) end(cause error, res *finished) string {
	defer func() {
		if t.release != nil {
			t.release()
		}
		t.untrack()
	}()
	ctx := context.WithoutCancel(t.ctx)
	var note, sum string
	if cause == nil {
		var err error
		if sum, err = t.reg.writeParts(ctx, t.ref(), res.epoch, true, res.artifact); err != nil {
			cause = err
		}
	}
	werr := t.reg.tx(ctx, func(tx *sql.Tx) error {
		if cause == nil {
			metrics, err := json.Marshal(res.metrics)
			if err != nil {
				return err
			}
			if err := t.reg.pointTo(ctx, tx, t.ref(), res.epoch, len(res.artifact), sum); err != nil {
				return err
			}
			if err := writeReport(ctx, tx, t.ref(), res.report); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE mlops.models SET status = 'ready', finished_at = current_timestamp, metrics = ?,
				test_loss = ?, val_loss = ? WHERE name = ? AND version = ?`, string(metrics), res.testLoss, res.valLoss, t.spec.name, t.version); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE mlops.training_runs SET status = 'succeeded', finished_at = current_timestamp
				WHERE run_id = ?`, t.id); err != nil {
				return err
			}
			note, err = t.reg.autoDeploy(ctx, tx, t.ref(), res.testLoss, res.valLoss, t.spec.deploy)
			return err
		}
		status := statusFailed
		if canceled(t.ctx, cause) {
			status = statusCanceled
		}
		if t.version > 0 {
			if status == statusFailed {
				if _, err := tx.ExecContext(ctx, "DELETE FROM mlops.artifacts WHERE name = ? AND version = ?", t.spec.name, t.version); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `UPDATE mlops.models SET checkpoint_epoch = NULL, artifact_size = NULL,
					artifact_checksum = NULL WHERE name = ? AND version = ?`, t.spec.name, t.version); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, "UPDATE mlops.models SET status = ?, finished_at = current_timestamp WHERE name = ? AND version = ?",
				status, t.spec.name, t.version); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, "UPDATE mlops.training_runs SET status = ?, finished_at = current_timestamp, error = ? WHERE run_id = ?",
			status, errorText(cause), t.id)
		return err
	})
	t.logEnd(cause, werr)
	if werr != nil {
		return "recording the end of training run failed: " + werr.Error()
	}
	return note
}

// writeReport stores ref's report, replacing any it had.
func writeReport(ctx context.Context, tx *sql.Tx, ref mlops.Ref, report any) error {
	if report == nil {
		return nil
	}
	data, err := json.Marshal(report)
	if err != nil {
		return fmt.Errorf("encode report of %s: %w", ref, err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM mlops.reports WHERE name = ? AND version = ?", ref.Name, ref.Version); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO mlops.reports (name, version, data) VALUES (?, ?, ?)", ref.Name, ref.Version, string(data))
	return err
}

// canceled reports whether a run ended because it was stopped: by
// mlops.cancel, a cancel request, a timeout, or the end of its statement.
func canceled(ctx context.Context, cause error) bool {
	return ctx.Err() != nil || errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) ||
		sqlstate.CodeOf(cause) == sqlstate.QueryCanceled
}

func errorText(err error) string {
	var e *sqlstate.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// queryer is what runs a query returning one row.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// logEnd records how the run ended, as end recorded it in the database.
func (t *trainingRun) logEnd(cause, recordErr error) {
	status, level := "succeeded", slog.LevelInfo
	switch {
	case cause != nil && canceled(t.ctx, cause):
		status = statusCanceled
	case cause != nil:
		status, level = statusFailed, slog.LevelWarn
	}
	attrs := []any{"run_id", t.id, "model", t.spec.name, "version", t.version, "status", status}
	if cause != nil {
		attrs = append(attrs, "error", errorText(cause))
	}
	if recordErr != nil {
		attrs, level = append(attrs, "record_error", recordErr.Error()), slog.LevelError
	}
	t.reg.runs.Log().Log(context.Background(), level, "training run ended", attrs...)
}
