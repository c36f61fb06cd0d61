//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/clsrun"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/mlops/training"
)

const featureImportanceName = "feature_importance"

// feature_importance('model', version := n, repeats := 5, seed := 1) is
// the permutation importance of each feature of a classifier or
// regressor version on its validation rows, which it finds again by
// reading the version's source and splitting it as training did.
func featureImportanceFunction() tableFunction {
	return typedFunction(featureImportanceName,
		[]column{{"feature", pgText}, {"importance", pgDouble}, {"std", pgDouble}, {"metric", pgText}}, bindFeatureImportance, nil)
}

// importanceArgs are feature_importance's arguments.
type importanceArgs struct {
	modelVersion
	Repeats int
	Seed    uint64
}

func (o *importanceArgs) params() []param {
	return []param{modelArg(&o.Model), versionArg(&o.Version),
		intArg(&o.Repeats, "repeats", 1, 1000, "how many times each feature is shuffled").or(5),
		intArg(&o.Seed, "seed", 0, unbounded, "the seed of the shuffles").or(1)}
}

// bindFeatureImportance loads the version (42704 if there is none, 42809
// for another kind of model), and refuses one trained without validation
// rows (55000) before anything is read.
func bindFeatureImportance(c *call, o *importanceArgs) (*table, error) {
	ref, err := o.ref(featureImportanceName)
	if err != nil {
		return nil, err
	}
	s, kind, m, err := loadSupervisedVersion(c, featureImportanceName, ref)
	if err != nil {
		return nil, err
	}
	v, err := c.reg.Version(c.ctx(), m.Ref)
	if err != nil {
		return nil, registryError(featureImportanceName, err)
	}
	p, err := clsrun.DecodeParams(featureImportanceName, "the hyperparameters of", m.Ref, v.Hyperparameters)
	if err != nil {
		return nil, err
	}
	if p.Columns.Split == "" && p.ValidationFraction == 0 {
		return nil, clsrun.NoValidationRows(featureImportanceName, m.Ref.String())
	}
	src, err := openSource(c.ctx(), c, featureImportanceName, v.Source)
	if err != nil {
		return nil, err
	}
	p.Columns = s.Columns
	j := reading(c, p.Again(featureImportanceName, kind, ""), src)
	return &table{open: func(ctx context.Context) (*run, error) {
		mem := training.NewMemory(c.db.Budget())
		defer mem.Release()
		imp, err := j.Importance(ctx, mem, s.Model, m.Ref.String(), v.Fingerprint, o.Repeats, o.Seed)
		if err != nil {
			return nil, err
		}
		metric := s.Model.ImportanceMetric()
		rows := make([][]any, len(imp))
		for i, x := range imp {
			rows[i] = []any{x.Feature, x.Mean, x.Std, metric}
		}
		return rowsRun(rows), nil
	}}, nil
}

// loadSupervisedVersion is loadSupervised, with what the registry records
// of the version it loaded (its number resolved).
func loadSupervisedVersion(c *call, fn string, ref mlops.Ref) (*classifier.Stored, string, *registry.Model, error) {
	kind, err := supervisedKind(c, fn, ref)
	if err != nil {
		return nil, "", nil, err
	}
	m, v, err := c.reg.Decoded(c.ctx(), kind, ref, func(data []byte) (any, error) { return classifier.DecodeStored(data) })
	if err != nil {
		return nil, "", nil, registryError(fn, err)
	}
	return v.(*classifier.Stored), kind, m, nil
}
