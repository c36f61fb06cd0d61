//go:build duckdb_arrow

package functions

import (
	"errors"

	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// registryError words an error of the registry for a caller of function
// fn: a SQLSTATE, a message that starts with fn, and a hint of what to
// do. Other errors are returned as they are.
func registryError(fn string, err error) error {
	var e *registry.Error
	if !errors.As(err, &e) {
		return err
	}
	ref := e.Ref
	switch e.Err {
	case registry.ErrNoModel:
		return sqlstate.New(sqlstate.UndefinedObject, "%s: model %s does not exist", fn, quote(ref.Name)).
			WithHint("SELECT DISTINCT name FROM mlops.models lists the models.")
	case registry.ErrNoVersion:
		return sqlstate.New(sqlstate.UndefinedObject, "%s: model %s has no version %d", fn, quote(ref.Name), ref.Version).
			WithHint("Its versions are %s.", e.VersionList())
	case registry.ErrNoRun:
		return sqlstate.New(sqlstate.UndefinedObject, "%s: training run %d does not exist", fn, e.Run).
			WithHint("SELECT run_id, model, status FROM mlops.training_runs lists the runs.")
	case registry.ErrNotReady:
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s is %s; only a ready version can be deployed", fn, ref, e.Status)
	case registry.ErrNotDeployed:
		err := sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: model %s has no deployed version", fn, quote(ref.Name))
		if fn == "mlops.rollback" {
			return err.WithHint("mlops.deploy('%s', version) deploys one.", ref.Name)
		}
		return err.WithHint("Name a version as '%s@n', or deploy one with mlops.deploy('%s', n).", ref.Name, ref.Name)
	case registry.ErrNoEarlier:
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: model %s has no earlier deployed version to return to", fn, quote(ref.Name)).
			WithHint("%s@%d is deployed; mlops.deploy('%s', version) deploys another.", ref.Name, e.Deployed, ref.Name)
	case registry.ErrInUse:
		return sqlstate.New(sqlstate.ObjectInUse, "%s: training run %d is training %s", fn, e.Run, ref).
			WithHint("Cancel it first: SELECT mlops.cancel(%d).", e.Run)
	case registry.ErrWrongKind:
		return sqlstate.New(sqlstate.WrongObjectType, "%s: %s is of kind %s, not %s", fn, ref, e.Kind, e.Want)
	case registry.ErrNoWeights:
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s is %s and has no saved weights", fn, ref, e.Status)
	case registry.ErrTraining:
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s is still training", fn, ref).
			WithHint("SELECT * FROM mlops.training_runs WHERE model = '%s' shows its progress.", ref.Name)
	case registry.ErrMissing:
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: the saved weights of %s are missing", fn, ref).
			WithDetail("mlops.models lists %s with saved weights, but mlops.artifacts has no row of them.", ref).
			WithHint("Train it again, or serve another version: mlops.deploy('%s', n).", ref.Name)
	case registry.ErrCorrupted:
		return sqlstate.New(sqlstate.DataCorrupted, "%s: the saved weights of %s do not match their checksum", fn, ref).
			WithDetail("mlops.models records %s; the artifact's is %s.", e.Checksum, e.Got)
	}
	return err
}
