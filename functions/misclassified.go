//go:build duckdb_arrow

package functions

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/classifier"
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

// wrongRow is a test row a classifier predicts wrongly.
type wrongRow struct {
	row               int // 1-based, in the order the source is read
	actual, predicted string
	probability       float64 // of the predicted class
	pixels            []float64
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
	var p clsParams
	if err := json.Unmarshal([]byte(v.Hyperparameters), &p); err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: the hyperparameters of %s: %v", misclassifiedName, m.Ref, err)
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
		wrong, err := misclassifiedRows(ctx, c, p, v.Source, v.Fingerprint, s.model, k)
		if err != nil {
			return nil, err
		}
		rows := make([][]any, 0, min(k, len(wrong)))
		for _, w := range wrong[:min(k, len(wrong))] {
			px := make([]any, len(w.pixels))
			for i, x := range w.pixels {
				px[i] = x
			}
			rows = append(rows, []any{int64(w.row), w.actual, w.predicted, w.probability, px})
		}
		return rowsRun(rows), nil
	}}, nil
}

// misclassifiedRows reads source as the run with params p read it, checks
// it against the version's fingerprint, splits it as the run did and
// returns the k test rows model predicts wrongly with the highest
// probability, most confident first; only those k images are read back
// from the spilled rows.
func misclassifiedRows(ctx context.Context, c *call, p clsParams, source, fingerprint string, model *classifier.Model, k int) ([]wrongRow, error) {
	src, err := openSource(ctx, c, misclassifiedName, source)
	if err != nil {
		return nil, err
	}
	spec := &clsSpec{fn: misclassifiedName, kind: classifierKind, target: "label", targetCol: p.Columns.Target, split: p.Columns.Split,
		valFraction: p.ValidationFraction, testFraction: p.TestFraction, maxCategories: max(p.MaxCategories, 1)}
	spec.opts.Seed = p.Seed
	j := &clsJob{c: c, spec: spec, src: src, cols: p.Columns}
	mem := training.NewMemory(c.db.Budget())
	defer mem.Release()
	d, err := j.read(ctx, mem)
	if err != nil {
		return nil, err
	}
	fp, err := d.fingerprint(ctx, p.Columns)
	if err != nil {
		return nil, j.fitError(err)
	}
	if fp != fingerprint {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: the data of %s changed since it was trained, so its test rows cannot be found again",
			misclassifiedName, quote(source)).WithHint("Train the model again on the current data.")
	}
	_, _, test, err := j.split(d)
	if err != nil {
		return nil, err
	}
	probs, err := model.PredictSource(ctx, classifier.Rows(d.rows, test))
	if err != nil {
		return nil, j.fitError(err)
	}
	var wrong []wrongRow
	for i, r := range test {
		best := 0
		for cl, q := range probs[i] {
			if q > probs[i][best] {
				best = cl
			}
		}
		if predicted := model.Classes[best]; predicted != d.labels[r] {
			wrong = append(wrong, wrongRow{row: r + 1, actual: d.labels[r], predicted: predicted, probability: probs[i][best]})
		}
	}
	slices.SortStableFunc(wrong, func(a, b wrongRow) int { return cmp.Compare(b.probability, a.probability) })
	wrong = wrong[:min(k, len(wrong))]
	for i := range wrong {
		t, err := d.rows.Table([]int{wrong[i].row - 1})
		if err != nil {
			return nil, j.fitError(err)
		}
		wrong[i].pixels = t.Image.Pixels[0]
	}
	return wrong, nil
}

// doubleListType is DOUBLE[].
func doubleListType() duckdb.TypeInfo {
	t, _ := duckdb.NewListInfo(doubleType())
	return t
}
