package registrystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
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

// Weights is what a model version's row says of its use and its
// artifact; Checksum is "" when it has none.
type Weights struct {
	Kind, Status    string
	Scaler, Metrics string
	Checksum        string
	CheckpointEpoch int
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

// scanAll reads every row of query with scan.
func scanAll[T any](ctx context.Context, x queryer, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	rows, err := x.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanOne reads the one row of query with scan; found is false if there
// is none.
func scanOne[T any](ctx context.Context, x queryer, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) (T, bool, error) {
	v, err := scan(x.QueryRowContext(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return v, false, nil
	}
	return v, err == nil, err
}

// Versions are the versions of model name, newest first; of every model
// by name when name is "".
func (s *Store) Versions(ctx context.Context, name string) ([]Version, error) {
	if name == "" {
		return scanAll(ctx, s.x, scanVersion, "SELECT "+versionColumns+" FROM mlops.models ORDER BY name, version DESC")
	}
	return scanAll(ctx, s.x, scanVersion, "SELECT "+versionColumns+" FROM mlops.models WHERE name = ? ORDER BY version DESC", name)
}

// Version reads the row of version ref.
func (s *Store) Version(ctx context.Context, ref mlops.Ref) (Version, bool, error) {
	return scanOne(ctx, s.x, scanVersion, "SELECT "+versionColumns+" FROM mlops.models WHERE name = ? AND version = ?", ref.Name, ref.Version)
}

// Kinds are the kinds of model name's versions, in order.
func (s *Store) Kinds(ctx context.Context, name string) ([]string, error) {
	return scanAll(ctx, s.x, scanString, "SELECT DISTINCT kind FROM mlops.models WHERE name = ? ORDER BY kind", name)
}

func scanString(s interface{ Scan(...any) error }) (string, error) {
	var v string
	err := s.Scan(&v)
	return v, err
}

func scanInt64(s interface{ Scan(...any) error }) (int64, error) {
	var v int64
	err := s.Scan(&v)
	return v, err
}

// LatestWithWeights is the newest version of model name that has saved
// weights (final or a checkpoint); 0 if none has.
func (s *Store) LatestWithWeights(ctx context.Context, name string) (int, error) {
	var v int
	err := s.x.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM mlops.models
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
func (s *Store) Runs(ctx context.Context, limit int) ([]Run, error) {
	return scanAll(ctx, s.x, scanRun, "SELECT "+runColumns+" FROM mlops.training_runs ORDER BY run_id DESC LIMIT ?", limit)
}

// Run reads training run id.
func (s *Store) Run(ctx context.Context, id int64) (Run, bool, error) {
	return scanOne(ctx, s.x, scanRun, "SELECT "+runColumns+" FROM mlops.training_runs WHERE run_id = ?", id)
}

// Metrics are the epochs training run id recorded so far, in order.
func (s *Store) Metrics(ctx context.Context, id int64) ([]Metric, error) {
	return scanAll(ctx, s.x, func(s interface{ Scan(...any) error }) (Metric, error) {
		var m Metric
		var extra sql.NullString
		err := s.Scan(&m.Epoch, &m.TrainLoss, &m.TestLoss, &m.ElapsedMS, &extra)
		m.Extra = ptr(extra.String, extra.Valid)
		return m, err
	}, "SELECT epoch, train_loss, test_loss, elapsed_ms, extra FROM mlops.training_metrics WHERE run_id = ? ORDER BY epoch", id)
}

// Report is the report of version ref, JSON.
func (s *Store) Report(ctx context.Context, ref mlops.Ref) (string, bool, error) {
	return scanOne(ctx, s.x, scanString, "SELECT data FROM mlops.reports WHERE name = ? AND version = ?", ref.Name, ref.Version)
}

// State is a fingerprint of the registry: it changes when a run starts,
// records an epoch or changes status, and when a model version changes
// status or deployment.
func (s *Store) State(ctx context.Context) (string, error) {
	var state string
	err := s.x.QueryRowContext(ctx, `SELECT CAST((SELECT count(*) FROM mlops.training_metrics) AS VARCHAR) || '/' ||
	CAST((SELECT coalesce(sum(hash(run_id, status, epochs_done, version)), 0) FROM mlops.training_runs) AS VARCHAR) || '/' ||
	CAST((SELECT coalesce(sum(hash(name, version, status, deployed, checkpoint_epoch)), 0) FROM mlops.models) AS VARCHAR)`).Scan(&state)
	return state, err
}

// Unfinished are the training runs that are queued or training, in order.
func (s *Store) Unfinished(ctx context.Context) ([]int64, error) {
	return scanAll(ctx, s.x, scanInt64, "SELECT run_id FROM mlops.training_runs WHERE status IN ('queued', 'training') ORDER BY run_id")
}

// Unended is how many of the runs ids are queued or training.
func (s *Store) Unended(ctx context.Context, ids []int64) (int, error) {
	var left int
	err := s.x.QueryRowContext(ctx, "SELECT count(*) FROM mlops.training_runs WHERE status IN ('queued', 'training') AND run_id IN "+idList(ids)).Scan(&left)
	return left, err
}

// idList is ids as an SQL list, "(1, 2)".
func idList(ids []int64) string {
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = strconv.FormatInt(id, 10)
	}
	return "(" + strings.Join(list, ", ") + ")"
}

// Weights reads what version ref's row says of its use and artifact.
func (s *Store) Weights(ctx context.Context, ref mlops.Ref) (Weights, bool, error) {
	return scanOne(ctx, s.x, func(s interface{ Scan(...any) error }) (Weights, error) {
		var w Weights
		var scaler, metrics, checksum sql.NullString
		var epoch sql.NullInt64
		err := s.Scan(&w.Kind, &w.Status, &scaler, &metrics, &checksum, &epoch)
		w.Scaler, w.Metrics, w.Checksum, w.CheckpointEpoch = scaler.String, metrics.String, checksum.String, int(epoch.Int64)
		return w, err
	}, `SELECT kind, status, scaler, metrics, artifact_checksum, checkpoint_epoch FROM mlops.models
		WHERE name = ? AND version = ?`, ref.Name, ref.Version)
}

// ArtifactParts calls part with each stored part of version ref's
// artifact of checksum sum, in order: the checksum and size the part
// records of the whole artifact, and its bytes, which part must copy.
func (s *Store) ArtifactParts(ctx context.Context, ref mlops.Ref, sum string, part func(sum string, size int64, data []byte)) error {
	rows, err := s.x.QueryContext(ctx, `SELECT checksum, size, data FROM mlops.artifacts
		WHERE name = ? AND version = ? AND checksum = ? ORDER BY part`, ref.Name, ref.Version, sum)
	if err != nil {
		return fmt.Errorf("load %s: %w", ref, err)
	}
	defer rows.Close()
	for rows.Next() {
		var got string
		var size int64
		var data []byte
		if err := rows.Scan(&got, &size, &data); err != nil {
			return fmt.Errorf("load %s: %w", ref, err)
		}
		part(got, size, data)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load %s: %w", ref, err)
	}
	return nil
}

// Deployed returns the deployed version of name, and its test loss
// (nil when NULL); 0 if none is deployed.
func (q q) Deployed(ctx context.Context, name string) (int, *float64, error) {
	var v int
	var loss sql.NullFloat64
	err := q.x.QueryRowContext(ctx, "SELECT version, test_loss FROM mlops.models WHERE name = ? AND deployed", name).Scan(&v, &loss)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	return v, ptr(loss.Float64, loss.Valid), err
}

// ValLoss is version ref's validation loss, nil when it has none.
func (q q) ValLoss(ctx context.Context, ref mlops.Ref) (*float64, error) {
	var val sql.NullFloat64
	err := q.x.QueryRowContext(ctx, "SELECT val_loss FROM mlops.models WHERE name = ? AND version = ?", ref.Name, ref.Version).Scan(&val)
	return ptr(val.Float64, val.Valid), err
}

// VersionState reads the kind and status of version ref.
func (q q) VersionState(ctx context.Context, ref mlops.Ref) (kind, status string, found bool, err error) {
	err = q.x.QueryRowContext(ctx, "SELECT kind, status FROM mlops.models WHERE name = ? AND version = ?", ref.Name, ref.Version).Scan(&kind, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", false, nil
	}
	return kind, status, err == nil, err
}

// VersionNumbers are the versions model name has, in order; none when it
// has none or they cannot be read.
func (q q) VersionNumbers(ctx context.Context, name string) []int {
	var versions string
	_ = q.x.QueryRowContext(ctx, "SELECT coalesce(string_agg(version::VARCHAR, ',' ORDER BY version), '') FROM mlops.models WHERE name = ?", name).Scan(&versions)
	var out []int
	for v := range strings.SplitSeq(versions, ",") {
		if n, err := strconv.Atoi(v); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// HasModel reports whether model name has a version; false when that
// cannot be read.
func (q q) HasModel(ctx context.Context, name string) bool {
	var n int
	_ = q.x.QueryRowContext(ctx, "SELECT count(*) FROM mlops.models WHERE name = ?", name).Scan(&n)
	return n > 0
}

// RunsByStatus counts the training runs by status.
func (s *Store) RunsByStatus(ctx context.Context) (map[string]int64, error) {
	rows, err := s.x.QueryContext(ctx, "SELECT status, count(*) FROM mlops.training_runs GROUP BY status")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var status string
		var n int64
		if err := rows.Scan(&status, &n); err != nil {
			return nil, err
		}
		out[status] = n
	}
	return out, rows.Err()
}

// EpochsRecorded is how many epochs mlops.training_metrics holds, over
// every run.
func (s *Store) EpochsRecorded(ctx context.Context) (int64, error) {
	var n int64
	err := s.x.QueryRowContext(ctx, "SELECT count(*) FROM mlops.training_metrics").Scan(&n)
	return n, err
}
