//go:build duckdb_arrow

package functions

import (
	"context"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/classifier/clsrun"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

const misclassifiedName = "misclassified"

func misclassifiedFunction() tableFunction {
	return typedFunction(misclassifiedName, nil, bindMisclassified, nil)
}

// misclassifiedArgs are misclassified's arguments.
type misclassifiedArgs struct {
	modelVersion
	K int
}

func (o *misclassifiedArgs) params() []param {
	return []param{modelArg(&o.Model), versionArg(&o.Version),
		intArg(&o.K, "k", 1, 1000, "how many wrongly predicted test images to return").or(16)}
}

// bindMisclassified is the k test rows of an image classifier version
// that it predicts wrongly with the highest probability, most confident
// first: `row, actual, predicted, probability, pixels` (the image as the
// source stores it). It reads the version's source again and splits it
// as training did (the same seed, fractions or split column), so the test
// rows are those confusion_matrix counts; a source whose data changed
// since, which the version's fingerprint tells, is 55000.
func bindMisclassified(c *call, o *misclassifiedArgs) (*table, error) {
	m, err := describeClassifier(c, o.modelVersion, misclassifiedName, "misclassified rows need a classifier", "")
	if err != nil {
		return nil, err
	}
	v, err := c.reg.Version(c.ctx(), m.Ref)
	if err != nil {
		return nil, registryError(misclassifiedName, err)
	}
	p, err := clsrun.DecodeParams(misclassifiedName, "the hyperparameters of", m.Ref, v.Hyperparameters)
	if err != nil {
		return nil, err
	}
	if p.Columns.Shape == nil {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s reads rows, not images; misclassified shows an image model's wrong test images", misclassifiedName, m.Ref).
			WithHint("confusion_matrix('%s') counts its test rows' errors.", m.Ref.Name)
	}
	s, _, err := loadSupervised(c, misclassifiedName, m.Ref)
	if err != nil {
		return nil, err
	}
	k := o.K
	cols := []duckdb.ColumnInfo{{Name: "row", T: bigintType()}, {Name: "actual", T: varcharType()}, {Name: "predicted", T: varcharType()},
		{Name: "probability", T: doubleType()}, {Name: "pixels", T: doubleListType()}}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) {
		src, err := openSource(ctx, c, misclassifiedName, v.Source)
		if err != nil {
			return nil, err
		}
		mem := training.NewMemory(c.db.Budget())
		defer mem.Release()
		wrong, err := reading(c, p.Again(misclassifiedName, classifierKind, "label"), src).Misclassified(ctx, mem, s.Model, v.Fingerprint, k)
		if err != nil {
			return nil, err
		}
		rows := make([][]any, 0, min(k, len(wrong)))
		for _, w := range wrong[:min(k, len(wrong))] {
			px := make([]any, len(w.Pixels))
			for i, x := range w.Pixels {
				px[i] = x
			}
			rows = append(rows, []any{int64(w.Row), w.Actual, w.Predicted, w.Probability, px})
		}
		return rowsRun(rows), nil
	}}, nil
}

// doubleListType is DOUBLE[].
func doubleListType() duckdb.TypeInfo {
	t, _ := duckdb.NewListInfo(doubleType())
	return t
}
