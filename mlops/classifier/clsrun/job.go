// Package clsrun is the lifecycle of a train_classifier or
// train_regressor run, and of the calls that read a version's rows again
// (feature_importance, misclassified): reading the rows through Rows,
// splitting them, checking the classes, the hyperparameters the registry
// records, resuming, training across MPI ranks, and the importance and
// wrong-prediction figures. It sits below mlops/classifier's numerics and
// beside mlops/job, which it uses to train across ranks; it writes no SQL.
package clsrun

import (
	"context"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// Rows reads a source's labelled rows (storage/prep's Labelled).
type Rows interface {
	// Count is the number of rows of the source.
	Count(ctx context.Context) (int64, error)
	// Read adds the rows to d: targets and split values in memory, the
	// features of cols to d.Rows.
	Read(ctx context.Context, cols classifier.Columns, d *classifier.Labelled) error
}

// Job is one execution of train_classifier or train_regressor, or a
// reading of a version's rows again: its checked arguments and the
// source's columns it reads.
type Job struct {
	Fn, Kind, Name string
	Regression     bool
	Options        classifier.Options
	// Target is the argument naming the column to learn (label or
	// target), and TargetCol that column as the call spelled it.
	Target, TargetCol string
	// Arch is architecture := as given; auto lets Fit choose (cnn for an
	// image, else mlp).
	Arch                      string
	ValFraction, TestFraction float64
	MaxCategories             int
	Deploy                    string
	CheckpointEvery           int
	// Source is the source as the call gave it; Session the calling
	// session; SpoolDir where the rows' features are spilled.
	Source   string
	Session  uint64
	SpoolDir string
	Cols     classifier.Columns
	// Across launches the run across MPI ranks; nil trains in this process.
	Across *training.Launch
	Rows   Rows
	// Notice sends a NOTICE to the caller.
	Notice func(string)
}

// Auto is the architecture argument's default: a network chosen by the
// data, with the linear model stored instead when it validates better.
const Auto = "auto"

// ReadRun reads the source, reserving its memory, splits the rows and
// refuses a classifier with one class among the training rows: the
// lifecycle's model of the run (see training.Start).
func (j *Job) ReadRun(ctx context.Context, mem *training.Memory) (training.Model, error) {
	d, err := j.Read(ctx, mem)
	if err != nil {
		return nil, err
	}
	train, val, test, err := j.Split(d)
	if err != nil {
		return nil, err
	}
	if err := j.checkClasses(d, train); err != nil {
		return nil, err
	}
	fitRows := append(slices.Clone(train), val...)
	r := &classifier.Run{Fn: j.Fn, Options: j.Options, Regression: j.Regression, Auto: j.Arch == Auto, Columns: j.Cols,
		Record: training.Spec{Kind: j.Kind, Name: j.Name, Params: j.Params(), Source: j.Source,
			CheckpointEvery: j.CheckpointEvery, Deploy: j.Deploy, Session: j.Session},
		Rows: d.Len(), IsVal: make([]bool, len(fitRows)), TrainRows: len(train), FitRows: d.Part(fitRows), TestRows: d.Part(test)}
	for i := len(train); i < len(fitRows); i++ {
		r.IsVal[i] = true
	}
	if j.Across != nil {
		r.Across = j.trainAcross
	}
	if r.DataFingerprint, err = d.Fingerprint(ctx, j.Cols); err != nil {
		return nil, j.FitError(err)
	}
	if err := j.reserveTraining(ctx, mem, d); err != nil {
		return nil, err
	}
	return r, nil
}

// FitError words an error of the numeric core as the function's; errors
// that already carry a SQLSTATE (a cancel, a divergence) and a context's
// end pass as they are.
func (j *Job) FitError(err error) error { return classifier.FitError(j.Fn, err) }

// Split assigns the rows to training, validation and test (see
// classifier.Splitting).
func (j *Job) Split(d *classifier.Labelled) (train, val, test []int, err error) {
	s := classifier.Splitting{Fn: j.Fn, Seed: j.Options.Seed, Parts: d.Parts, TestFraction: j.TestFraction, ValFraction: j.ValFraction}
	return s.Split(d.Len())
}

// checkClasses refuses a classifier whose training rows have fewer than
// two classes.
func (j *Job) checkClasses(d *classifier.Labelled, train []int) error {
	if j.Regression {
		return nil
	}
	classes := map[string]bool{}
	for _, r := range train {
		classes[d.Labels[r]] = true
		if len(classes) > 1 {
			return nil
		}
	}
	var only string
	for k := range classes {
		only = k
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: label := %s has one class, %s, in the %d training rows; a classifier needs at least two",
		j.Fn, quote(j.TargetCol), quote(only), len(train)).
		WithHint("train_regressor(..., target := %s) learns a number.", quote(j.TargetCol))
}

// quote is s as a SQL string literal, as messages show a value.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
