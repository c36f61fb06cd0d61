//go:build duckdb_arrow

package registry

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mallard/mallard/mlops"
)

// Version is a model version's row of mlops.models. Nullable columns are
// pointers, nil when NULL.
type Version struct {
	Ref             mlops.Ref
	Kind            string
	Status          string
	Deployed        bool
	RunID           int64
	CreatedAt       time.Time
	FinishedAt      *time.Time
	Hyperparameters string // JSON
	Metrics         *string
	TestLoss        *float64
	ValLoss         *float64
	Source          string
	Fingerprint     string
	Rows            int64
	Entities        int64
	Scaler          *string
	CheckpointEpoch *int
}

// Run is a training run's row of mlops.training_runs, with its version's
// hyperparameters (nil before it has a version).
type Run struct {
	ID              int64
	Model           string
	Version         *int
	Kind            string
	Status          string
	QueuedAt        time.Time
	StartedAt       *time.Time
	FinishedAt      *time.Time
	Epochs          int
	EpochsDone      int
	BestEpoch       *int
	BestTestLoss    *float64
	Error           *string
	ResumedFrom     *string
	Hyperparameters *string
}

// Metric is one epoch of a training run, as mlops.training_metrics has it.
type Metric struct {
	Epoch     int
	TrainLoss float64
	TestLoss  float64
	ElapsedMS float64
	Extra     *string // JSON
}

const versionColumns = `name, version, kind, status, deployed, run_id, created_at, finished_at, hyperparameters, metrics,
	test_loss, val_loss, source, fingerprint, rows, entities, scaler, checkpoint_epoch`

func scanVersion(s interface{ Scan(...any) error }) (Version, error) {
	var v Version
	var finished sql.NullTime
	var metrics, scaler sql.NullString
	var test, val sql.NullFloat64
	var epoch sql.NullInt64
	err := s.Scan(&v.Ref.Name, &v.Ref.Version, &v.Kind, &v.Status, &v.Deployed, &v.RunID, &v.CreatedAt, &finished, &v.Hyperparameters,
		&metrics, &test, &val, &v.Source, &v.Fingerprint, &v.Rows, &v.Entities, &scaler, &epoch)
	v.FinishedAt, v.Metrics, v.Scaler = ptr(finished.Time, finished.Valid), ptr(metrics.String, metrics.Valid), ptr(scaler.String, scaler.Valid)
	v.TestLoss, v.ValLoss, v.CheckpointEpoch = ptr(test.Float64, test.Valid), ptr(val.Float64, val.Valid), ptr(int(epoch.Int64), epoch.Valid)
	return v, err
}

// Versions are the versions of model name, newest first; of every model
// by name when name is "". A model without versions has none: no error.
func (r *Registry) Versions(ctx context.Context, name string) ([]Version, error) {
	query, args := "SELECT "+versionColumns+" FROM mlops.models ORDER BY name, version DESC", []any{}
	if name != "" {
		query, args = "SELECT "+versionColumns+" FROM mlops.models WHERE name = ? ORDER BY version DESC", []any{name}
	}
	rows, err := r.db.SQL().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read model versions: %w", err)
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, fmt.Errorf("read model versions: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Version reads one model version: ErrNoModel or ErrNoVersion if there
// is no such version. Unlike Describe, it does not resolve version 0.
func (r *Registry) Version(ctx context.Context, ref mlops.Ref) (Version, error) {
	db := r.db.SQL()
	v, err := scanVersion(db.QueryRowContext(ctx, "SELECT "+versionColumns+" FROM mlops.models WHERE name = ? AND version = ?", ref.Name, ref.Version))
	if errors.Is(err, sql.ErrNoRows) {
		return v, noModel(ctx, db, ref)
	}
	if err != nil {
		return v, fmt.Errorf("read %s: %w", ref, err)
	}
	return v, nil
}

// Kinds are the kinds of model name's versions: none if it has none.
func (r *Registry) Kinds(ctx context.Context, name string) ([]string, error) {
	rows, err := r.db.SQL().QueryContext(ctx, "SELECT DISTINCT kind FROM mlops.models WHERE name = ? ORDER BY kind", name)
	if err != nil {
		return nil, fmt.Errorf("read kinds of %q: %w", name, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// LatestWithWeights is the newest version of model name that has saved
// weights (final or a checkpoint); 0 if none has.
func (r *Registry) LatestWithWeights(ctx context.Context, name string) (int, error) {
	var v int
	err := r.db.SQL().QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM mlops.models
		WHERE name = ? AND artifact_checksum IS NOT NULL`, name).Scan(&v)
	return v, err
}

const runColumns = `run_id, model, version, kind, status, queued_at, started_at, finished_at, epochs, epochs_done, best_epoch,
	best_test_loss, error, resumed_from,
	(SELECT m.hyperparameters FROM mlops.models m WHERE m.name = training_runs.model AND m.version = training_runs.version)`

func scanRun(s interface{ Scan(...any) error }) (Run, error) {
	var u Run
	var version, best sql.NullInt64
	var started, finished sql.NullTime
	var loss sql.NullFloat64
	var msg, from, hp sql.NullString
	err := s.Scan(&u.ID, &u.Model, &version, &u.Kind, &u.Status, &u.QueuedAt, &started, &finished, &u.Epochs, &u.EpochsDone, &best,
		&loss, &msg, &from, &hp)
	u.Version, u.BestEpoch = ptr(int(version.Int64), version.Valid), ptr(int(best.Int64), best.Valid)
	u.StartedAt, u.FinishedAt = ptr(started.Time, started.Valid), ptr(finished.Time, finished.Valid)
	u.BestTestLoss, u.Error = ptr(loss.Float64, loss.Valid), ptr(msg.String, msg.Valid)
	u.ResumedFrom, u.Hyperparameters = ptr(from.String, from.Valid), ptr(hp.String, hp.Valid)
	return u, err
}

// Runs are the latest limit training runs, newest first.
func (r *Registry) Runs(ctx context.Context, limit int) ([]Run, error) {
	rows, err := r.db.SQL().QueryContext(ctx, "SELECT "+runColumns+" FROM mlops.training_runs ORDER BY run_id DESC LIMIT ?", limit)
	if err != nil {
		return nil, fmt.Errorf("read training runs: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		u, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("read training runs: %w", err)
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// Run reads training run id: ErrNoRun if there is none.
func (r *Registry) Run(ctx context.Context, id int64) (Run, error) {
	u, err := scanRun(r.db.SQL().QueryRowContext(ctx, "SELECT "+runColumns+" FROM mlops.training_runs WHERE run_id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return u, &Error{Err: ErrNoRun, Run: id}
	}
	if err != nil {
		return u, fmt.Errorf("read training run %d: %w", id, err)
	}
	return u, nil
}

// Metrics are the epochs training run id recorded so far, in order.
func (r *Registry) Metrics(ctx context.Context, id int64) ([]Metric, error) {
	rows, err := r.db.SQL().QueryContext(ctx, "SELECT epoch, train_loss, test_loss, elapsed_ms, extra FROM mlops.training_metrics WHERE run_id = ? ORDER BY epoch", id)
	if err != nil {
		return nil, fmt.Errorf("read metrics of training run %d: %w", id, err)
	}
	defer rows.Close()
	var out []Metric
	for rows.Next() {
		var m Metric
		var extra sql.NullString
		if err := rows.Scan(&m.Epoch, &m.TrainLoss, &m.TestLoss, &m.ElapsedMS, &extra); err != nil {
			return nil, fmt.Errorf("read metrics of training run %d: %w", id, err)
		}
		m.Extra = ptr(extra.String, extra.Valid)
		out = append(out, m)
	}
	return out, rows.Err()
}

// Report is the report of version ref, JSON, stored when it finished
// training: ErrNoReport, with the version's status, if it has none
// (ErrNoModel or ErrNoVersion if there is no such version).
func (r *Registry) Report(ctx context.Context, ref mlops.Ref) ([]byte, error) {
	db := r.db.SQL()
	var data string
	err := db.QueryRowContext(ctx, "SELECT data FROM mlops.reports WHERE name = ? AND version = ?", ref.Name, ref.Version).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		_, status, err := versionState(ctx, db, ref)
		if err != nil {
			return nil, err
		}
		return nil, &Error{Err: ErrNoReport, Ref: ref, Status: status}
	}
	if err != nil {
		return nil, fmt.Errorf("read report of %s: %w", ref, err)
	}
	return []byte(data), nil
}

// State is a fingerprint of the registry: it changes when a run starts,
// records an epoch or changes status, and when a model version changes
// status or deployment.
func (r *Registry) State(ctx context.Context) (string, error) {
	var state string
	err := r.db.SQL().QueryRowContext(ctx, `SELECT CAST((SELECT count(*) FROM mlops.training_metrics) AS VARCHAR) || '/' ||
	CAST((SELECT coalesce(sum(hash(run_id, status, epochs_done, version)), 0) FROM mlops.training_runs) AS VARCHAR) || '/' ||
	CAST((SELECT coalesce(sum(hash(name, version, status, deployed, checkpoint_epoch)), 0) FROM mlops.models) AS VARCHAR)`).Scan(&state)
	return state, err
}

func ptr[T any](v T, valid bool) *T {
	if !valid {
		return nil
	}
	return &v
}
