//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

const confusionMatrixName = "confusion_matrix"

func confusionMatrixFunction() tableFunction {
	return typedFunction(confusionMatrixName, nil, bindConfusionMatrix, nil)
}

// describeClassifier reads the classifier version mv names for function
// fn. A model of another kind is 42809 naming it and saying what fn needs
// (need), with hint, if not "", formatted with the model's name.
func describeClassifier(c *call, mv modelVersion, fn, need, hint string) (*registry.Model, error) {
	ref, err := mv.ref(fn)
	if err != nil {
		return nil, err
	}
	kinds, err := c.reg.Kinds(c.ctx(), ref.Name)
	if err != nil {
		return nil, err
	}
	if len(kinds) > 0 && kinds[0] != classifierKind {
		e := sqlstate.New(sqlstate.WrongObjectType, "%s: model %s is a %s; %s", fn, quote(ref.Name), kinds[0], need)
		if hint != "" {
			e = e.WithHint(hint, ref.Name)
		}
		return nil, e
	}
	m, err := c.reg.Describe(c.ctx(), classifierKind, ref)
	if err != nil {
		return nil, registryError(fn, err)
	}
	return m, nil
}

// bindConfusionMatrix is the confusion matrix of the method a classifier
// version serves, on its test rows: one row per pair of a true class and
// a predicted one, `actual, predicted, count`, zeros included, classes in
// order (true labels the model never saw last).
func bindConfusionMatrix(c *call, o *servingArgs) (*table, error) {
	m, err := describeClassifier(c, o.modelVersion, confusionMatrixName, "a confusion matrix needs a classifier", "evaluate('%s') measures it.")
	if err != nil {
		return nil, err
	}
	var metrics []classifier.Recorded
	if m.Metrics != "" {
		if err := json.Unmarshal([]byte(m.Metrics), &metrics); err != nil {
			return nil, fmt.Errorf("decode metrics of %s: %w", m.Ref, err)
		}
	}
	i := slices.IndexFunc(metrics, func(x classifier.Recorded) bool { return x.Served })
	if i < 0 || metrics[i].Confusion == nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s has no test rows measured", confusionMatrixName, m.Ref).
			WithHint("A version that finished training with test_fraction above 0, or test rows in its split column, has one.")
	}
	ct, err := versionClassType(c, confusionMatrixName, m.Ref)
	if err != nil {
		return nil, err
	}
	cm := metrics[i].Confusion
	var rows [][]any
	for r, actual := range cm.Classes {
		for p, predicted := range cm.Classes {
			rows = append(rows, []any{ct.Value(actual), ct.Value(predicted), int64(cm.Counts[r][p])})
		}
	}
	cols := []duckdb.ColumnInfo{{Name: "actual", T: classTypeInfo(ct)}, {Name: "predicted", T: classTypeInfo(ct)}, {Name: "count", T: bigintType()}}
	return &table{cols: cols, open: func(context.Context) (*run, error) { return rowsRun(rows), nil }}, nil
}
