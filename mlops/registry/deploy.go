//go:build duckdb_arrow

package registry

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mallard/mallard/mlops"
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
func (r *Registry) autoDeploy(ctx context.Context, tx *sql.Tx, ref mlops.Ref, testLoss float64, valLoss *float64, mode string) (string, error) {
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

// versionState reads the kind and status of a model version; ErrNoModel
// or ErrNoVersion if there is no such version.
func versionState(ctx context.Context, q queryer, ref mlops.Ref) (kind, status string, err error) {
	err = q.QueryRowContext(ctx, "SELECT kind, status FROM mlops.models WHERE name = ? AND version = ?", ref.Name, ref.Version).Scan(&kind, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", noModel(ctx, q, ref)
	}
	return kind, status, err
}

// noModel is the error for a reference to a model or version that does
// not exist: ErrNoModel, or ErrNoVersion with the versions that do.
func noModel(ctx context.Context, q queryer, ref mlops.Ref) error {
	var versions string
	_ = q.QueryRowContext(ctx, "SELECT coalesce(string_agg(version::VARCHAR, ',' ORDER BY version), '') FROM mlops.models WHERE name = ?", ref.Name).Scan(&versions)
	if versions == "" {
		return &Error{Err: ErrNoModel, Ref: ref}
	}
	e := &Error{Err: ErrNoVersion, Ref: ref}
	for v := range strings.SplitSeq(versions, ",") {
		n, _ := strconv.Atoi(v)
		e.Versions = append(e.Versions, n)
	}
	return e
}

// Deploy deploys a ready version: it becomes what callers get when they
// name no version. ErrNotReady if it is not ready.
func (r *Registry) Deploy(ctx context.Context, ref mlops.Ref) error {
	return r.tx(ctx, func(tx *sql.Tx) error {
		_, status, err := versionState(ctx, tx, ref)
		if err != nil {
			return err
		}
		if status != StatusReady {
			return &Error{Err: ErrNotReady, Ref: ref, Status: status}
		}
		return setDeployed(ctx, tx, ref, "deploy")
	})
}

// Rollback deploys the version deployed before the current one, and
// returns it: ErrNotDeployed if none is deployed, ErrNoEarlier if no
// earlier deployed version is ready.
func (r *Registry) Rollback(ctx context.Context, name string) (mlops.Ref, error) {
	var to mlops.Ref
	err := r.tx(ctx, func(tx *sql.Tx) error {
		cur, _, err := deployed(ctx, tx, name)
		if err != nil {
			return err
		}
		if cur == 0 {
			if !hasModel(ctx, tx, name) {
				return noModel(ctx, tx, mlops.Ref{Name: name})
			}
			return &Error{Err: ErrNotDeployed, Ref: mlops.Ref{Name: name}}
		}
		var seq int64
		err = tx.QueryRowContext(ctx, `SELECT d.seq, d.version FROM mlops.deployments d JOIN mlops.models m USING (name, version)
			WHERE d.name = ? AND NOT d.undone AND d.version <> ? AND m.status = 'ready' ORDER BY d.seq DESC LIMIT 1`, name, cur).Scan(&seq, &to.Version)
		if errors.Is(err, sql.ErrNoRows) {
			return &Error{Err: ErrNoEarlier, Ref: mlops.Ref{Name: name}, Deployed: cur}
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

// Drop deletes a version (all versions when ref.Version is 0): its model
// rows and artifacts, in one transaction. A version being trained cannot
// be dropped (ErrInUse). When the deployed version goes, the one deployed
// before it, if any, is deployed again. It returns how many versions it
// deleted.
func (r *Registry) Drop(ctx context.Context, ref mlops.Ref) (int64, error) {
	var n int64
	err := r.tx(ctx, func(tx *sql.Tx) error {
		if ref.Version > 0 {
			if _, _, err := versionState(ctx, tx, ref); err != nil {
				return err
			}
		} else if !hasModel(ctx, tx, ref.Name) {
			return noModel(ctx, tx, ref)
		}
		var run int64
		err := tx.QueryRowContext(ctx, `SELECT run_id FROM mlops.training_runs WHERE model = ? AND status IN ('queued', 'training')
			AND (? = 0 OR version = ?) LIMIT 1`, ref.Name, ref.Version, ref.Version).Scan(&run)
		if err == nil {
			return &Error{Err: ErrInUse, Ref: ref, Run: run}
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
