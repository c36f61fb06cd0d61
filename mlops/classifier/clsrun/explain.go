package clsrun

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// NoValidationRows is fn's refusal of version ref, trained without
// validation rows (55000).
func NoValidationRows(fn, ref string) error {
	return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s was trained without validation rows, on which importance is measured", fn, ref).
		WithHint("Train a version with validation_fraction above 0, or validation rows in its split column.")
}

// Importance reads the source again, checks it is the data version ref
// (whose data's fingerprint is fingerprint) was trained on, and measures
// the permutation importance of each feature of its model on the
// validation rows, repeats shuffles each with seed.
func (j *Job) Importance(ctx context.Context, mem *training.Memory, model *classifier.Model, ref, fingerprint string, repeats int, seed uint64) ([]classifier.Importance, error) {
	d, err := j.readSame(ctx, mem, fingerprint, func(fp string) error {
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: source %s is not the data %s was trained on, so its validation rows cannot be found again",
			j.Fn, quote(j.Source), ref).
			WithDetail("The version's fingerprint was %s; the source's is %s. It covers every feature, target and split value read.", fingerprint, fp).
			WithHint("Train a new version on the data as it is now.")
	})
	if err != nil {
		return nil, err
	}
	_, val, _, err := j.Split(d)
	if err != nil {
		return nil, err
	}
	if len(val) == 0 {
		return nil, NoValidationRows(j.Fn, ref)
	}
	// Permuting a column needs the validation rows at once: they are read
	// back from the spill file into memory, reserved first.
	if err := mem.Reserve(ctx, 8*int64(len(val))*j.Width(), fmt.Sprintf("%s's %d validation rows", j.Fn, len(val))); err != nil {
		return nil, err
	}
	valRows, err := d.Rows.Table(val)
	if err != nil {
		return nil, j.FitError(err)
	}
	_, imp, err := classifier.PermutationImportance(ctx, model, valRows, d.Target(val), repeats, seed)
	if err != nil {
		return nil, j.FitError(err)
	}
	return imp, nil
}

// Wrong is a test row a classifier predicts wrongly.
type Wrong struct {
	Row               int // 1-based, in the order the source is read
	Actual, Predicted string
	Probability       float64 // of the predicted class
	Pixels            []float64
}

// Misclassified reads the source again as the run read it, checks it
// against the version's fingerprint, splits it as the run did and
// returns the k test rows model predicts wrongly with the highest
// probability, most confident first; only those k images are read back
// from the spilled rows.
func (j *Job) Misclassified(ctx context.Context, mem *training.Memory, model *classifier.Model, fingerprint string, k int) ([]Wrong, error) {
	d, err := j.readSame(ctx, mem, fingerprint, func(string) error {
		return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: the data of %s changed since it was trained, so its test rows cannot be found again",
			j.Fn, quote(j.Source)).WithHint("Train the model again on the current data.")
	})
	if err != nil {
		return nil, err
	}
	_, _, test, err := j.Split(d)
	if err != nil {
		return nil, err
	}
	probs, err := model.PredictSource(ctx, classifier.Rows(d.Rows, test))
	if err != nil {
		return nil, j.FitError(err)
	}
	var wrong []Wrong
	for i, r := range test {
		best := 0
		for cl, q := range probs[i] {
			if q > probs[i][best] {
				best = cl
			}
		}
		if predicted := model.Classes[best]; predicted != d.Labels[r] {
			wrong = append(wrong, Wrong{Row: r + 1, Actual: d.Labels[r], Predicted: predicted, Probability: probs[i][best]})
		}
	}
	slices.SortStableFunc(wrong, func(a, b Wrong) int { return cmp.Compare(b.Probability, a.Probability) })
	wrong = wrong[:min(k, len(wrong))]
	for i := range wrong {
		t, err := d.Rows.Table([]int{wrong[i].Row - 1})
		if err != nil {
			return nil, j.FitError(err)
		}
		wrong[i].Pixels = t.Image.Pixels[0]
	}
	return wrong, nil
}

// readSame reads the source again as the run read it and checks that it
// is the data whose fingerprint is fingerprint; where it is not, changed
// makes the error from the source's fingerprint now.
func (j *Job) readSame(ctx context.Context, mem *training.Memory, fingerprint string, changed func(fp string) error) (*classifier.Labelled, error) {
	d, err := j.Read(ctx, mem)
	if err != nil {
		return nil, err
	}
	fp, err := d.Fingerprint(ctx, j.Cols)
	if err != nil {
		return nil, j.FitError(err)
	}
	if fp != fingerprint {
		return nil, changed(fp)
	}
	return d, nil
}
