//go:build duckdb_arrow

package registry

import (
	"context"
	"fmt"

	"github.com/mallard/mallard/mlops"
)

// Deployment: at most one version of a name is deployed, and it is what
// forecast, evaluate and recommend use when no version is named.
// mlops.deployments logs every deployment; rollback returns to the entry
// before the current one and marks the entries after it undone, so that
// rolling back again goes further back.

// autoDeploy deploys a newly trained version as mode says: always, never,
// or (auto) when no version is deployed or its loss is lower than the
// deployed one's: the validation loss when both versions have one (a GAT
// trained with validation), else the test loss. It returns what it did,
// for the caller.
func (r *Registry) autoDeploy(ctx context.Context, tx Tx, ref mlops.Ref, testLoss float64, valLoss *float64, mode string) (string, error) {
	cur, curLoss, err := tx.Deployed(ctx, ref.Name)
	if err != nil {
		return "", err
	}
	loss, which := testLoss, "test"
	if cur != 0 && valLoss != nil {
		curVal, err := tx.ValLoss(ctx, mlops.Ref{Name: ref.Name, Version: cur})
		if err != nil {
			return "", err
		}
		if curVal != nil {
			loss, which, curLoss = *valLoss, "validation", curVal
		}
	}
	switch {
	case mode == "never":
		return fmt.Sprintf("%s is not deployed (deploy := 'never')", ref), nil
	case mode == "auto" && cur != 0 && curLoss != nil && loss >= *curLoss:
		return fmt.Sprintf("%s is not deployed: its %s loss %.6g is not below %.6g of the deployed %s@%d; mlops.deploy('%s', %d) deploys it",
			ref, which, loss, *curLoss, ref.Name, cur, ref.Name, ref.Version), nil
	}
	if err := tx.SetDeployed(ctx, ref, "train"); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s is deployed", ref), nil
}

// versionState reads the kind and status of a model version; ErrNoModel
// or ErrNoVersion if there is no such version.
func versionState(ctx context.Context, q lookups, ref mlops.Ref) (kind, status string, err error) {
	kind, status, found, err := q.VersionState(ctx, ref)
	if err == nil && !found {
		err = noModel(ctx, q, ref)
	}
	return kind, status, err
}

// noModel is the error for a reference to a model or version that does
// not exist: ErrNoModel, or ErrNoVersion with the versions that do.
func noModel(ctx context.Context, q lookups, ref mlops.Ref) error {
	versions := q.VersionNumbers(ctx, ref.Name)
	if len(versions) == 0 {
		return &Error{Err: ErrNoModel, Ref: ref}
	}
	return &Error{Err: ErrNoVersion, Ref: ref, Versions: versions}
}

// Deploy deploys a ready version: it becomes what callers get when they
// name no version. ErrNotReady if it is not ready.
func (r *Registry) Deploy(ctx context.Context, ref mlops.Ref) error {
	return r.tx(ctx, func(tx Tx) error {
		_, status, err := versionState(ctx, tx, ref)
		if err != nil {
			return err
		}
		if status != StatusReady {
			return &Error{Err: ErrNotReady, Ref: ref, Status: status}
		}
		return tx.SetDeployed(ctx, ref, "deploy")
	})
}

// Rollback deploys the version deployed before the current one, and
// returns it: ErrNotDeployed if none is deployed, ErrNoEarlier if no
// earlier deployed version is ready.
func (r *Registry) Rollback(ctx context.Context, name string) (mlops.Ref, error) {
	var to mlops.Ref
	err := r.tx(ctx, func(tx Tx) error {
		cur, _, err := tx.Deployed(ctx, name)
		if err != nil {
			return err
		}
		if cur == 0 {
			if !tx.HasModel(ctx, name) {
				return noModel(ctx, tx, mlops.Ref{Name: name})
			}
			return &Error{Err: ErrNotDeployed, Ref: mlops.Ref{Name: name}}
		}
		seq, version, found, err := tx.PreviousDeployment(ctx, name, cur)
		if err != nil {
			return err
		}
		if !found {
			return &Error{Err: ErrNoEarlier, Ref: mlops.Ref{Name: name}, Deployed: cur}
		}
		to = mlops.Ref{Name: name, Version: version}
		if err := tx.UndoAfter(ctx, name, seq); err != nil {
			return err
		}
		return tx.SetDeployed(ctx, to, "rollback")
	})
	return to, err
}

// Drop deletes a version (all versions when ref.Version is 0): its model
// rows and artifacts, in one transaction. A version being trained cannot
// be dropped (ErrInUse). When the deployed version goes, the one deployed
// before it, if any, is deployed again. It returns how many versions it
// deleted.
func (r *Registry) Drop(ctx context.Context, ref mlops.Ref) (int64, error) {
	var n int64
	err := r.tx(ctx, func(tx Tx) error {
		if ref.Version > 0 {
			if _, _, err := versionState(ctx, tx, ref); err != nil {
				return err
			}
		} else if !tx.HasModel(ctx, ref.Name) {
			return noModel(ctx, tx, ref)
		}
		run, found, err := tx.ActiveRun(ctx, ref)
		if err != nil {
			return err
		}
		if found {
			return &Error{Err: ErrInUse, Ref: ref, Run: run}
		}
		if n, err = tx.Delete(ctx, ref); err != nil {
			return err
		}
		if cur, _, err := tx.Deployed(ctx, ref.Name); err != nil || cur != 0 || ref.Version == 0 {
			return err
		}
		_, back, found, err := tx.PreviousDeployment(ctx, ref.Name, 0)
		if err != nil || !found {
			return err
		}
		return tx.Redeploy(ctx, ref.Name, back)
	})
	return n, err
}
