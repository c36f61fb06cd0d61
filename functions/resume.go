//go:build duckdb_arrow

package functions

import (
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// loadResumed reads the version of kind that resume := text names, the
// model's newest with saved weights if it names none, and what the
// registry recorded of it, for training function fn.
func loadResumed(c *call, fn, kind, text string) (*registry.Model, registry.Version, error) {
	ref, err := mlops.ParseRef(text)
	if err != nil {
		return nil, registry.Version{}, sqlstate.New(sqlstate.InvalidParameterValue, "%s: resume: %v", fn, err)
	}
	if ref.Version == 0 {
		if ref.Version, err = c.reg.LatestWithWeights(c.ctx(), ref.Name); err != nil {
			return nil, registry.Version{}, err
		}
		if ref.Version == 0 {
			return nil, registry.Version{}, sqlstate.New(sqlstate.UndefinedObject, "%s: resume: model %s has no version with saved weights", fn, quote(ref.Name)).
				WithHint("SELECT name, version, status, checkpoint_epoch FROM mlops.models lists the versions and their checkpoints.")
		}
	}
	m, err := c.reg.Load(c.ctx(), kind, ref)
	if err != nil {
		return nil, registry.Version{}, registryError(fn, err)
	}
	v, err := c.reg.Version(c.ctx(), m.Ref)
	if err != nil {
		return nil, registry.Version{}, registryError(fn, err)
	}
	return m, v, nil
}
