//go:build duckdb_arrow

package functions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/sqlstate"
)

// Deployment: at most one version of a name is deployed, and it is what
// forecast, evaluate and recommend use when no version is named.
// mlops.deployments logs every deployment; rollback returns to the entry
// before the current one and marks the entries after it undone, so that
// rolling back again goes further back.

// deployed returns the deployed version of name, and its test loss; 0 if none.
func deployed(ctx context.Context, q queryer, name string) (int, sql.NullFloat64, error) {
	var v int
	var loss sql.NullFloat64
	err := q.QueryRowContext(ctx, "SELECT version, test_loss FROM mlops.models WHERE name = ? AND deployed", name).Scan(&v, &loss)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, loss, nil
	}
	return v, loss, err
}

// setDeployed deploys ref and logs it with action.
func setDeployed(ctx context.Context, tx *sql.Tx, ref mlops.Ref, action string) error {
	if _, err := tx.ExecContext(ctx, "UPDATE mlops.models SET deployed = (version = ?) WHERE name = ? AND deployed <> (version = ?)",
		ref.Version, ref.Name, ref.Version); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO mlops.deployments (seq, name, version, action)
		SELECT coalesce(max(seq), 0) + 1, ?, ?, ? FROM mlops.deployments`, ref.Name, ref.Version, action)
	return err
}

// autoDeploy deploys a newly trained version as mode says: always, never,
// or (auto) when no version is deployed or its loss is lower than the
// deployed one's: the validation loss when both versions have one (a GAT
// trained with validation), else the test loss. It returns what it did,
// for the caller.
func (r *registry) autoDeploy(ctx context.Context, tx *sql.Tx, ref mlops.Ref, testLoss float64, valLoss *float64, mode string) (string, error) {
	cur, curLoss, err := deployed(ctx, tx, ref.Name)
	if err != nil {
		return "", err
	}
	loss, which := testLoss, "test"
	if cur != 0 && valLoss != nil {
		var curVal sql.NullFloat64
		if err := tx.QueryRowContext(ctx, "SELECT val_loss FROM mlops.models WHERE name = ? AND version = ?", ref.Name, cur).Scan(&curVal); err != nil {
			return "", err
		}
		if curVal.Valid {
			loss, which, curLoss = *valLoss, "validation", curVal
		}
	}
	switch {
	case mode == "never":
		return fmt.Sprintf("%s is not deployed (deploy := 'never')", ref), nil
	case mode == "auto" && cur != 0 && curLoss.Valid && loss >= curLoss.Float64:
		return fmt.Sprintf("%s is not deployed: its %s loss %.6g is not below %.6g of the deployed %s@%d; mlops.deploy('%s', %d) deploys it",
			ref, which, loss, curLoss.Float64, ref.Name, cur, ref.Name, ref.Version), nil
	}
	if err := setDeployed(ctx, tx, ref, "train"); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s is deployed", ref), nil
}

// versionState reads the kind and status of a model version; 42704 if
// there is no such version.
func versionState(ctx context.Context, q queryer, fn string, ref mlops.Ref) (kind, status string, err error) {
	err = q.QueryRowContext(ctx, "SELECT kind, status FROM mlops.models WHERE name = ? AND version = ?", ref.Name, ref.Version).Scan(&kind, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", noModel(ctx, q, fn, ref)
	}
	return kind, status, err
}

// noModel is the error for a reference to a model or version that does
// not exist, with a hint listing what does.
func noModel(ctx context.Context, q queryer, fn string, ref mlops.Ref) error {
	var versions string
	_ = q.QueryRowContext(ctx, "SELECT coalesce(string_agg(version::VARCHAR, ', ' ORDER BY version), '') FROM mlops.models WHERE name = ?", ref.Name).Scan(&versions)
	if versions == "" {
		return sqlstate.New(sqlstate.UndefinedObject, "%s: model %s does not exist", fn, quote(ref.Name)).
			WithHint("SELECT DISTINCT name FROM mlops.models lists the models.")
	}
	return sqlstate.New(sqlstate.UndefinedObject, "%s: model %s has no version %d", fn, quote(ref.Name), ref.Version).
		WithHint("Its versions are %s.", versions)
}

// deploy deploys a ready version.
func (r *registry) deploy(ctx context.Context, ref mlops.Ref) error {
	const fn = "mlops.deploy"
	return r.tx(ctx, func(tx *sql.Tx) error {
		_, status, err := versionState(ctx, tx, fn, ref)
		if err != nil {
			return err
		}
		if status != statusReady {
			return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s is %s; only a ready version can be deployed", fn, ref, status)
		}
		return setDeployed(ctx, tx, ref, "deploy")
	})
}

// rollback deploys the version deployed before the current one.
func (r *registry) rollback(ctx context.Context, name string) (mlops.Ref, error) {
	const fn = "mlops.rollback"
	var to mlops.Ref
	err := r.tx(ctx, func(tx *sql.Tx) error {
		cur, _, err := deployed(ctx, tx, name)
		if err != nil {
			return err
		}
		if cur == 0 {
			if err := noModel(ctx, tx, fn, mlops.Ref{Name: name}); sqlstate.CodeOf(err) == sqlstate.UndefinedObject && !hasModel(ctx, tx, name) {
				return err
			}
			return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: model %s has no deployed version", fn, quote(name)).
				WithHint("mlops.deploy('%s', version) deploys one.", name)
		}
		var seq int64
		err = tx.QueryRowContext(ctx, `SELECT d.seq, d.version FROM mlops.deployments d JOIN mlops.models m USING (name, version)
			WHERE d.name = ? AND NOT d.undone AND d.version <> ? AND m.status = 'ready' ORDER BY d.seq DESC LIMIT 1`, name, cur).Scan(&seq, &to.Version)
		if errors.Is(err, sql.ErrNoRows) {
			return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: model %s has no earlier deployed version to return to", fn, quote(name)).
				WithHint("%s@%d is deployed; mlops.deploy('%s', version) deploys another.", name, cur, name)
		}
		if err != nil {
			return err
		}
		to.Name = name
		if _, err := tx.ExecContext(ctx, "UPDATE mlops.deployments SET undone = true WHERE name = ? AND seq > ?", name, seq); err != nil {
			return err
		}
		return setDeployed(ctx, tx, to, "rollback")
	})
	return to, err
}

func hasModel(ctx context.Context, q queryer, name string) bool {
	var n int
	_ = q.QueryRowContext(ctx, "SELECT count(*) FROM mlops.models WHERE name = ?", name).Scan(&n)
	return n > 0
}

// drop deletes a version (all versions when ref.Version is 0): its model
// rows and artifacts, in one transaction. A version being trained cannot
// be dropped. When the deployed version goes, the one deployed before it,
// if any, is deployed again. It returns how many versions it deleted.
func (r *registry) drop(ctx context.Context, ref mlops.Ref) (int64, error) {
	const fn = "mlops.drop"
	var n int64
	err := r.tx(ctx, func(tx *sql.Tx) error {
		if ref.Version > 0 {
			if _, _, err := versionState(ctx, tx, fn, ref); err != nil {
				return err
			}
		} else if !hasModel(ctx, tx, ref.Name) {
			return noModel(ctx, tx, fn, ref)
		}
		var run int64
		err := tx.QueryRowContext(ctx, `SELECT run_id FROM mlops.training_runs WHERE model = ? AND status IN ('queued', 'training')
			AND (? = 0 OR version = ?) LIMIT 1`, ref.Name, ref.Version, ref.Version).Scan(&run)
		if err == nil {
			return sqlstate.New(sqlstate.ObjectInUse, "%s: training run %d is training %s", fn, run, ref).
				WithHint("Cancel it first: SELECT mlops.cancel(%d).", run)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		match := "name = ? AND (? = 0 OR version = ?)"
		for _, table := range []string{"mlops.artifacts", "mlops.reports"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+match, ref.Name, ref.Version, ref.Version); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM mlops.models WHERE "+match, ref.Name, ref.Version, ref.Version)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE mlops.deployments SET undone = true WHERE "+match, ref.Name, ref.Version, ref.Version); err != nil {
			return err
		}
		if cur, _, err := deployed(ctx, tx, ref.Name); err != nil || cur != 0 || ref.Version == 0 {
			return err
		}
		var back int
		err = tx.QueryRowContext(ctx, `SELECT d.version FROM mlops.deployments d JOIN mlops.models m USING (name, version)
			WHERE d.name = ? AND NOT d.undone AND m.status = 'ready' ORDER BY d.seq DESC LIMIT 1`, ref.Name).Scan(&back)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE mlops.models SET deployed = (version = ?) WHERE name = ?", back, ref.Name)
		return err
	})
	return n, err
}

// storedModel is a model version as the registry keeps it.
type storedModel struct {
	ref      mlops.Ref
	kind     string
	status   string
	scaler   string
	metrics  string
	epoch    int    // of the artifact
	checksum string // of the artifact
	artifact []byte
}

// load reads a model version of kind and its artifact, verified against
// its checksum. Version 0 is the deployed one. A version that is training
// or failed has no usable artifact; a canceled or interrupted one may have
// its last checkpoint.
func (r *registry) load(ctx context.Context, fn, kind string, ref mlops.Ref) (*storedModel, error) {
	m, err := r.describe(ctx, fn, kind, ref)
	if err != nil {
		return nil, err
	}
	return m, r.readArtifact(ctx, fn, m)
}

// describe reads what the registry records of a model version of kind,
// checking that it has an artifact, but not the artifact.
func (r *registry) describe(ctx context.Context, fn, kind string, ref mlops.Ref) (*storedModel, error) {
	db := r.db.SQL()
	if ref.Version == 0 {
		v, _, err := deployed(ctx, db, ref.Name)
		if err != nil {
			return nil, err
		}
		if v == 0 {
			if !hasModel(ctx, db, ref.Name) {
				return nil, noModel(ctx, db, fn, ref)
			}
			return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: model %s has no deployed version", fn, quote(ref.Name)).
				WithHint("Name a version as '%s@n', or deploy one with mlops.deploy('%s', n).", ref.Name, ref.Name)
		}
		ref.Version = v
	}
	m := &storedModel{ref: ref}
	var scaler, metrics, checksum sql.NullString
	var epoch sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT kind, status, scaler, metrics, artifact_checksum, checkpoint_epoch FROM mlops.models
		WHERE name = ? AND version = ?`, ref.Name, ref.Version).Scan(&m.kind, &m.status, &scaler, &metrics, &checksum, &epoch)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, noModel(ctx, db, fn, ref)
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", ref, err)
	}
	m.scaler, m.metrics, m.epoch, m.checksum = scaler.String, metrics.String, int(epoch.Int64), checksum.String
	if m.kind != kind {
		return nil, sqlstate.New(sqlstate.WrongObjectType, "%s: %s is of kind %s, not %s", fn, ref, m.kind, kind)
	}
	if !checksum.Valid {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s is %s and has no saved weights", fn, ref, m.status)
	}
	if m.status == statusTraining {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s is still training", fn, ref).
			WithHint("SELECT * FROM mlops.training_runs WHERE model = '%s' shows its progress.", ref.Name)
	}
	return m, nil
}

// readArtifact reads m's artifact, joining its parts, and verifies it
// against its checksum.
func (r *registry) readArtifact(ctx context.Context, fn string, m *storedModel) error {
	rows, err := r.db.SQL().QueryContext(ctx, `SELECT checksum, size, data FROM mlops.artifacts
		WHERE name = ? AND version = ? AND checksum = ? ORDER BY part`, m.ref.Name, m.ref.Version, m.checksum)
	if err != nil {
		return fmt.Errorf("load %s: %w", m.ref, err)
	}
	defer rows.Close()
	var sum string
	var size int64
	var part []byte
	parts := 0
	for rows.Next() {
		if err := rows.Scan(&sum, &size, &part); err != nil {
			return fmt.Errorf("load %s: %w", m.ref, err)
		}
		if m.artifact == nil && size >= 0 && size < 1<<40 {
			m.artifact = make([]byte, 0, size)
		}
		m.artifact = append(m.artifact, part...)
		parts++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load %s: %w", m.ref, err)
	}
	if parts == 0 {
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: the saved weights of %s are missing", fn, m.ref).
			WithDetail("mlops.models lists %s with saved weights, but mlops.artifacts has no row of them.", m.ref).
			WithHint("Train it again, or serve another version: mlops.deploy('%s', n).", m.ref.Name)
	}
	if got := mlops.Checksum(m.artifact); sum != m.checksum || got != sum || int64(len(m.artifact)) != size {
		return sqlstate.New(sqlstate.DataCorrupted, "%s: the saved weights of %s do not match their checksum", fn, m.ref).
			WithDetail("mlops.models records %s; the artifact's is %s.", m.checksum, got)
	}
	return nil
}

// decoded returns a model version of kind, as load does, and its artifact
// as decode makes it: from the registry's cache while the version's
// checksum is the one it was decoded from, so that serving a model does
// not read and decode its weights on every call. The decoded value is
// shared and must not be changed.
func (r *registry) decoded(ctx context.Context, fn, kind string, ref mlops.Ref, decode func([]byte) (any, error)) (*storedModel, any, error) {
	m, err := r.describe(ctx, fn, kind, ref)
	if err != nil {
		return nil, nil, err
	}
	key := m.ref.String() + "#" + m.checksum
	if v, ok := r.cache.get(key); ok {
		return m, v, nil
	}
	if err := r.readArtifact(ctx, fn, m); err != nil {
		return nil, nil, err
	}
	v, err := decode(m.artifact)
	if err != nil {
		return nil, nil, err
	}
	m.artifact = nil
	r.cache.put(key, v)
	return m, v, nil
}
