package classifier

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Importance is one feature's permutation importance (Breiman 2001;
// Fisher, Rudin & Dominici 2019): how much a model's score on a set of
// rows gets worse when that feature's values are shuffled across the
// rows, which breaks its link with the target and leaves its
// distribution as it is.
type Importance struct {
	// Feature is the column's name: a numeric column, a categorical one
	// (its one-hot inputs shuffled together) or the image.
	Feature string
	// Mean is the drop in accuracy (a classifier) or the increase in RMSE
	// (a regressor, in the target's units) averaged over the repeats; Std
	// is the population standard deviation of the repeats' drops.
	Mean, Std float64
}

// ImportanceMetric is the score PermutationImportance measures drops in:
// "accuracy" for a classifier, "rmse" for a regressor.
func (m *Model) ImportanceMetric() string {
	if m.Regression {
		return "rmse"
	}
	return "accuracy"
}

// PermutationImportance measures each feature of t (numeric columns,
// then categorical ones, then the image) on m: repeats times, the rows of
// that one column are permuted and the whole table predicted again. The
// permutations depend only on seed, the feature's position and the
// repeat, so the figures are reproducible and do not depend on the other
// features. The result is sorted by Mean, largest first, ties in the
// order of t's columns; base is the unpermuted score.
func PermutationImportance(ctx context.Context, m *Model, t *Table, target Target, repeats int, seed uint64) (base float64, out []Importance, err error) {
	n, err := t.Rows()
	if err != nil {
		return 0, nil, err
	}
	if repeats < 1 {
		return 0, nil, fmt.Errorf("repeats %d: want at least 1", repeats)
	}
	if got := len(target.Labels) + len(target.Values); got != n {
		return 0, nil, fmt.Errorf("%d targets for %d rows", got, n)
	}
	score := func(x *Table) (float64, error) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		probs, err := m.Predict(x)
		if err != nil {
			return 0, err
		}
		if m.Regression {
			pred := make([]float64, len(probs))
			for i, p := range probs {
				pred[i] = p[0]
			}
			return Regress(pred, target.Values).RMSE, nil
		}
		return Classify(probs, target.Labels, m.Classes).Accuracy, nil
	}
	if base, err = score(t); err != nil {
		return 0, nil, err
	}
	features := permutable(t)
	for f, feat := range features {
		rng := rand.New(rand.NewPCG(seed, uint64(f)))
		drops := make([]float64, repeats)
		for r := range drops {
			s, err := score(feat.permuted(rng.Perm(n)))
			if err != nil {
				return 0, nil, err
			}
			drops[r] = base - s
			if m.Regression {
				drops[r] = s - base
			}
		}
		mean, std := meanStd(drops)
		out = append(out, Importance{Feature: feat.name, Mean: mean, Std: std})
	}
	slices.SortStableFunc(out, func(a, b Importance) int { return cmp.Compare(b.Mean, a.Mean) })
	return base, out, nil
}

// feature is one column of a table that can be shuffled: permuted returns
// a copy of the table, sharing every other column, with that column's
// rows in the order perm gives.
type feature struct {
	name     string
	permuted func(perm []int) *Table
}

// permutable lists t's features in the order of its columns.
func permutable(t *Table) []feature {
	var out []feature
	for i, c := range t.Numeric {
		out = append(out, feature{c.Name, func(perm []int) *Table {
			x := *t
			x.Numeric = slices.Clone(t.Numeric)
			x.Numeric[i].Values = permute(c.Values, perm)
			return &x
		}})
	}
	for i, c := range t.Categorical {
		out = append(out, feature{c.Name, func(perm []int) *Table {
			x := *t
			x.Categorical = slices.Clone(t.Categorical)
			x.Categorical[i].Values = permute(c.Values, perm)
			return &x
		}})
	}
	if im := t.Image; im != nil {
		out = append(out, feature{im.Name, func(perm []int) *Table {
			x, c := *t, *im
			c.Pixels = permute(im.Pixels, perm)
			x.Image = &c
			return &x
		}})
	}
	return out
}

func permute[T any](v []T, perm []int) []T {
	out := make([]T, len(perm))
	for i, p := range perm {
		out[i] = v[p]
	}
	return out
}

// meanStd is the mean and population standard deviation of v.
func meanStd(v []float64) (mean, std float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(v)))
}
