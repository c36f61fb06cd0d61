package registrystore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/mallard/mallard/mlops"
)

// NewRun is what a training run records of itself when it is queued.
type NewRun struct {
	Model, Kind string
	Epochs      int
	Session     uint64
	ResumedFrom string // "" for none
}

// NewVersion is a model version's row as a run that starts records it.
type NewVersion struct {
	Ref                 mlops.Ref
	Kind                string
	RunID               int64
	Hyperparameters     string // JSON
	Source, Fingerprint string
	Rows, Entities      int64
	Scaler              string // "" for none
	MallardVersion      string
}

// ArtifactPart is one stored part of an artifact: Size and Checksum are
// the whole artifact's.
type ArtifactPart struct {
	Ref      mlops.Ref
	Epoch    int
	Final    bool
	Size     int
	Checksum string
	Data     []byte
	Part     int
}

// Recover marks the runs a stopped server left queued or training, and
// their model versions, interrupted, and removes the parts of artifacts
// no model version points at.
func (t *Tx) Recover(ctx context.Context) error {
	return t.exec(ctx,
		stmt(`UPDATE mlops.training_runs SET status = 'interrupted', finished_at = current_timestamp,
			error = 'the server stopped while the run was ' || status WHERE status IN ('queued', 'training')`),
		stmt(`UPDATE mlops.models SET status = 'interrupted', finished_at = current_timestamp WHERE status = 'training'`),
		stmt(`DELETE FROM mlops.artifacts a WHERE NOT EXISTS (SELECT 1 FROM mlops.models m
			WHERE m.name = a.name AND m.version = a.version AND m.artifact_checksum = a.checksum)`))
}

// MarkInterrupted records the runs ids that are queued, training or
// canceled, and their versions training or canceled, as interrupted.
func (t *Tx) MarkInterrupted(ctx context.Context, ids []int64) error {
	in := idList(ids)
	return t.exec(ctx,
		stmt(`UPDATE mlops.training_runs SET status = 'interrupted', finished_at = coalesce(finished_at, current_timestamp),
			error = 'the server shut down before the run finished' WHERE status IN ('queued', 'training', 'canceled') AND run_id IN `+in),
		stmt(`UPDATE mlops.models SET status = 'interrupted', finished_at = coalesce(finished_at, current_timestamp)
			WHERE status IN ('training', 'canceled') AND run_id IN `+in))
}

// QueueRun records a run as queued under the next run id, and returns it.
func (t *Tx) QueueRun(ctx context.Context, r NewRun) (int64, error) {
	var id int64
	if err := t.x.QueryRowContext(ctx, "SELECT coalesce(max(run_id), 0) + 1 FROM mlops.training_runs").Scan(&id); err != nil {
		return 0, err
	}
	_, err := t.x.ExecContext(ctx, `INSERT INTO mlops.training_runs (run_id, model, kind, status, epochs, session, resumed_from)
		VALUES (?, ?, ?, 'queued', ?, ?, ?)`, id, r.Model, r.Kind, r.Epochs, r.Session, nullIfEmpty(r.ResumedFrom))
	return id, err
}

// NextVersion is the version model name's next version gets.
func (t *Tx) NextVersion(ctx context.Context, name string) (int, error) {
	var v int
	err := t.x.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) + 1 FROM mlops.models WHERE name = ?", name).Scan(&v)
	return v, err
}

// StartVersion records v as training, and its run as training it.
func (t *Tx) StartVersion(ctx context.Context, v NewVersion) error {
	return t.exec(ctx,
		stmt(`INSERT INTO mlops.models (name, version, kind, status, run_id, hyperparameters, source,
			fingerprint, rows, entities, scaler, mallard_version) VALUES (?, ?, ?, 'training', ?, ?, ?, ?, ?, ?, ?, ?)`,
			v.Ref.Name, v.Ref.Version, v.Kind, v.RunID, v.Hyperparameters, v.Source, v.Fingerprint, v.Rows, v.Entities,
			nullIfEmpty(v.Scaler), v.MallardVersion),
		stmt(`UPDATE mlops.training_runs SET status = 'training', version = ?, started_at = current_timestamp
			WHERE run_id = ?`, v.Ref.Version, v.RunID))
}

// AddEpoch records an epoch of run id, whose extra measures are the JSON
// extra (nil for none), and the run's progress: epochs done, and its best
// epoch and that epoch's test loss.
func (t *Tx) AddEpoch(ctx context.Context, id int64, m Metric, bestEpoch int, bestTest float64) error {
	var extra any
	if m.Extra != nil {
		extra = *m.Extra
	}
	return t.exec(ctx,
		stmt("INSERT INTO mlops.training_metrics (run_id, epoch, train_loss, test_loss, elapsed_ms, extra) VALUES (?, ?, ?, ?, ?, ?)",
			id, m.Epoch, m.TrainLoss, m.TestLoss, m.ElapsedMS, extra),
		stmt("UPDATE mlops.training_runs SET epochs_done = ?, best_epoch = ?, best_test_loss = ? WHERE run_id = ?",
			m.Epoch, bestEpoch, bestTest, id))
}

// AddArtifactPart stores p; its first part first removes the parts of
// the same artifact (the same checksum) stored before.
func (t *Tx) AddArtifactPart(ctx context.Context, p ArtifactPart) error {
	if p.Part == 0 {
		if err := t.exec(ctx, stmt("DELETE FROM mlops.artifacts WHERE name = ? AND version = ? AND checksum = ?",
			p.Ref.Name, p.Ref.Version, p.Checksum)); err != nil {
			return err
		}
	}
	return t.exec(ctx, stmt(`INSERT INTO mlops.artifacts (name, version, epoch, final, size, checksum, data, part)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.Ref.Name, p.Ref.Version, p.Epoch, p.Final, p.Size, p.Checksum, p.Data, p.Part))
}

// PointTo makes ref's row point at its artifact of checksum sum, of size
// bytes and after epoch, and removes ref's other artifacts.
func (t *Tx) PointTo(ctx context.Context, ref mlops.Ref, epoch, size int, sum string) error {
	return t.exec(ctx,
		stmt("DELETE FROM mlops.artifacts WHERE name = ? AND version = ? AND checksum <> ?", ref.Name, ref.Version, sum),
		stmt(`UPDATE mlops.models SET checkpoint_epoch = ?, artifact_size = ?, artifact_checksum = ?
			WHERE name = ? AND version = ?`, epoch, size, sum, ref.Name, ref.Version))
}

// DropWeights removes ref's artifacts and its row's pointer to them.
func (t *Tx) DropWeights(ctx context.Context, ref mlops.Ref) error {
	return t.exec(ctx,
		stmt("DELETE FROM mlops.artifacts WHERE name = ? AND version = ?", ref.Name, ref.Version),
		stmt(`UPDATE mlops.models SET checkpoint_epoch = NULL, artifact_size = NULL,
			artifact_checksum = NULL WHERE name = ? AND version = ?`, ref.Name, ref.Version))
}

// SetReport stores ref's report, the JSON data, replacing any it had.
func (t *Tx) SetReport(ctx context.Context, ref mlops.Ref, data string) error {
	return t.exec(ctx,
		stmt("DELETE FROM mlops.reports WHERE name = ? AND version = ?", ref.Name, ref.Version),
		stmt("INSERT INTO mlops.reports (name, version, data) VALUES (?, ?, ?)", ref.Name, ref.Version, data))
}

// MarkReady records ref as ready, finished now, with its metrics (JSON)
// and losses.
func (t *Tx) MarkReady(ctx context.Context, ref mlops.Ref, metrics string, testLoss float64, valLoss *float64) error {
	return t.exec(ctx, stmt(`UPDATE mlops.models SET status = 'ready', finished_at = current_timestamp, metrics = ?,
		test_loss = ?, val_loss = ? WHERE name = ? AND version = ?`, metrics, testLoss, valLoss, ref.Name, ref.Version))
}

// SetVersionStatus records ref as status, finished now.
func (t *Tx) SetVersionStatus(ctx context.Context, ref mlops.Ref, status string) error {
	return t.exec(ctx, stmt("UPDATE mlops.models SET status = ?, finished_at = current_timestamp WHERE name = ? AND version = ?",
		status, ref.Name, ref.Version))
}

// SucceedRun records run id as succeeded, finished now.
func (t *Tx) SucceedRun(ctx context.Context, id int64) error {
	return t.exec(ctx, stmt(`UPDATE mlops.training_runs SET status = 'succeeded', finished_at = current_timestamp
		WHERE run_id = ?`, id))
}

// EndRun records run id as status, finished now, with the error message.
func (t *Tx) EndRun(ctx context.Context, id int64, status, message string) error {
	return t.exec(ctx, stmt("UPDATE mlops.training_runs SET status = ?, finished_at = current_timestamp, error = ? WHERE run_id = ?",
		status, message, id))
}

// SetDeployed deploys ref, and no other version of its name, and logs it
// in mlops.deployments with action.
func (t *Tx) SetDeployed(ctx context.Context, ref mlops.Ref, action string) error {
	return t.exec(ctx,
		stmt("UPDATE mlops.models SET deployed = (version = ?) WHERE name = ? AND deployed <> (version = ?)",
			ref.Version, ref.Name, ref.Version),
		stmt(`INSERT INTO mlops.deployments (seq, name, version, action)
			SELECT coalesce(max(seq), 0) + 1, ?, ?, ? FROM mlops.deployments`, ref.Name, ref.Version, action))
}

// Redeploy deploys version of name again, and no other, without logging
// it: the deployment it returns to is logged already.
func (t *Tx) Redeploy(ctx context.Context, name string, version int) error {
	return t.exec(ctx, stmt("UPDATE mlops.models SET deployed = (version = ?) WHERE name = ?", version, name))
}

// PreviousDeployment is the latest deployment of name, not undone, of a
// ready version other than not (0: any): its sequence number and version.
func (t *Tx) PreviousDeployment(ctx context.Context, name string, not int) (seq int64, version int, found bool, err error) {
	err = t.x.QueryRowContext(ctx, `SELECT d.seq, d.version FROM mlops.deployments d JOIN mlops.models m USING (name, version)
		WHERE d.name = ? AND NOT d.undone AND d.version <> ? AND m.status = 'ready' ORDER BY d.seq DESC LIMIT 1`, name, not).Scan(&seq, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, false, nil
	}
	return seq, version, err == nil, err
}

// UndoAfter marks the deployments of name after seq undone.
func (t *Tx) UndoAfter(ctx context.Context, name string, seq int64) error {
	return t.exec(ctx, stmt("UPDATE mlops.deployments SET undone = true WHERE name = ? AND seq > ?", name, seq))
}

// ActiveRun is a run queued or training version ref (any version of its
// name when ref.Version is 0).
func (t *Tx) ActiveRun(ctx context.Context, ref mlops.Ref) (int64, bool, error) {
	return scanOne(ctx, t.x, scanInt64, `SELECT run_id FROM mlops.training_runs WHERE model = ? AND status IN ('queued', 'training')
		AND (? = 0 OR version = ?) LIMIT 1`, ref.Name, ref.Version, ref.Version)
}

// Delete deletes version ref (every version of its name when ref.Version
// is 0): its artifacts, report and row; its deployments are marked
// undone. It returns how many versions it deleted.
func (t *Tx) Delete(ctx context.Context, ref mlops.Ref) (int64, error) {
	match := "name = ? AND (? = 0 OR version = ?)"
	args := []any{ref.Name, ref.Version, ref.Version}
	for _, table := range []string{"mlops.artifacts", "mlops.reports"} {
		if _, err := t.x.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+match, args...); err != nil {
			return 0, err
		}
	}
	res, err := t.x.ExecContext(ctx, "DELETE FROM mlops.models WHERE "+match, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	_, err = t.x.ExecContext(ctx, "UPDATE mlops.deployments SET undone = true WHERE "+match, args...)
	return n, err
}

// statement is one statement and its arguments.
type statement struct {
	query string
	args  []any
}

func stmt(query string, args ...any) statement { return statement{query, args} }

// exec runs each statement in turn, stopping at the first error.
func (t *Tx) exec(ctx context.Context, stmts ...statement) error {
	for _, s := range stmts {
		if _, err := t.x.ExecContext(ctx, s.query, s.args...); err != nil {
			return err
		}
	}
	return nil
}
