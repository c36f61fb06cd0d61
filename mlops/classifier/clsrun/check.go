package clsrun

import (
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// Check checks what of a training job can be checked without its source:
// its options, that it names a column to learn and a model, and that the
// call's split column (split, "" for none) and image shape (shape, nil
// for none) leave training rows and fit its architecture. It fails with
// 22023, or 42883 for a missing argument, naming the argument.
func (j *Job) Check(split string, shape []int) error {
	fn, target := j.Fn, j.Target
	if err := j.Options.Validate(); err != nil {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", fn, err)
	}
	switch {
	case j.TargetCol == "":
		return sqlstate.New(sqlstate.UndefinedFunction, "%s: argument %s is required", fn, target).
			WithHint("Name the column to learn: %s(source, %s := 'column', model := 'name').", fn, target)
	case j.Name == "":
		return sqlstate.New(sqlstate.UndefinedFunction, "%s: argument model is required", fn).
			WithHint("Name the model to train: %s(source, %s := 'column', model := 'name').", fn, target)
	case j.Regression && j.Options.Balanced:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: class_weight := 'balanced' applies to classifiers; a regressor has no classes", fn)
	case split == "" && j.ValFraction+j.TestFraction >= 1:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: validation_fraction := %g and test_fraction := %g leave no training rows",
			fn, j.ValFraction, j.TestFraction).WithHint("Their sum must be below 1.")
	case shape != nil && len(shape) != 3:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s has %d sizes; give three: [channels, height, width]",
			fn, classifier.ShapeText(shape), len(shape))
	case j.Arch == classifier.ModelCNN && shape == nil:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: architecture := 'cnn' needs shape := [channels, height, width] of the image column", fn).
			WithHint("Images are an array (UTINYINT[], FLOAT[]) or BLOB column, for example shape := [1, 28, 28] for MNIST.")
	case j.Arch == classifier.ModelCNN && (shape[1] < 4 || shape[2] < 4):
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s: architecture 'cnn' pools twice by 2 and needs images of at least 4 x 4",
			fn, classifier.ShapeText(shape)).WithHint("Use architecture := 'mlp' for smaller images.")
	}
	return nil
}
