//go:build duckdb_arrow

package functions

import (
	"context"
	"slices"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// clsJob is one execution of train_classifier or train_regressor: its
// checked arguments and the source's columns it reads.
type clsJob struct {
	c    *call
	spec *clsSpec
	src  *source
	cols classifier.Columns
	// across launches the run across MPI ranks; nil trains in this process.
	across *training.Launch
}

// clsData are a source's rows as read: the features (spilled to a file),
// the target (labels of a classifier or values of a regressor) and, with
// a split column, each row's part.
type clsData struct {
	rows   *classifier.Spill
	labels []string
	values []float64
	parts  []string
}

// part is the rows idx of d.
func (d clsData) part(idx []int) classifier.Part {
	return classifier.Part{Rows: classifier.Rows(d.rows, idx), Labels: pick(d.labels, idx), Values: pick(d.values, idx)}
}

// start starts an execution through the lifecycle.
func (j *clsJob) start(ctx context.Context) (*run, error) {
	return trainRun(ctx, trainingJob(j.c, j.spec.fn, j.spec.from.resume(j.spec.allowDataChange)), j.readRun)
}

// readRun reads the source, reserving its memory, splits the rows and
// refuses a classifier with one class among the training rows.
func (j *clsJob) readRun(ctx context.Context, mem *training.Memory) (training.Model, error) {
	d, err := j.read(ctx, mem)
	if err != nil {
		return nil, err
	}
	train, val, test, err := j.split(d)
	if err != nil {
		return nil, err
	}
	if err := j.checkClasses(d, train); err != nil {
		return nil, err
	}
	fitRows := append(slices.Clone(train), val...)
	r := &classifier.Run{Fn: j.spec.fn, Options: j.spec.opts, Regression: j.spec.regression, Auto: j.spec.arch == archAuto, Columns: j.cols,
		Record: training.Spec{Kind: j.spec.kind, Name: j.spec.name, Params: j.params(), Source: j.src.text,
			CheckpointEvery: j.spec.checkpoint, Deploy: j.spec.deploy, Session: j.c.caller.ID()},
		Rows: len(d.labels) + len(d.values), IsVal: make([]bool, len(fitRows)), TrainRows: len(train), FitRows: d.part(fitRows), TestRows: d.part(test)}
	for i := len(train); i < len(fitRows); i++ {
		r.IsVal[i] = true
	}
	if j.across != nil {
		r.Across = j.trainAcross
	}
	if r.DataFingerprint, err = d.fingerprint(ctx, j.cols); err != nil {
		return nil, j.fitError(err)
	}
	if err := j.reserveTraining(ctx, mem, d); err != nil {
		return nil, err
	}
	return r, nil
}

// fitError words an error of the numeric core as the function's; errors
// that already carry a SQLSTATE (a cancel, a divergence) and a context's
// end pass as they are.
func (j *clsJob) fitError(err error) error { return classifier.FitError(j.spec.fn, err) }

// split assigns the rows to training, validation and test (see
// classifier.Splitting).
func (j *clsJob) split(d clsData) (train, val, test []int, err error) {
	s := classifier.Splitting{Fn: j.spec.fn, Seed: j.spec.opts.Seed, Parts: d.parts, TestFraction: j.spec.testFraction, ValFraction: j.spec.valFraction}
	return s.Split(len(d.labels) + len(d.values))
}

// checkClasses refuses a classifier whose training rows have fewer than
// two classes.
func (j *clsJob) checkClasses(d clsData, train []int) error {
	if j.spec.regression {
		return nil
	}
	classes := map[string]bool{}
	for _, r := range train {
		classes[d.labels[r]] = true
		if len(classes) > 1 {
			return nil
		}
	}
	var only string
	for k := range classes {
		only = k
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: label := %s has one class, %s, in the %d training rows; a classifier needs at least two",
		j.spec.fn, quote(j.spec.targetCol), quote(only), len(train)).
		WithHint("train_regressor(..., target := %s) learns a number.", quote(j.spec.targetCol))
}

// clsParams are a run's hyperparameters as mlops.models records them.
type clsParams struct {
	Architecture       string             `json:"architecture"`
	Hidden             []int              `json:"hidden"`
	Epochs             int                `json:"epochs"`
	LR                 float64            `json:"lr"`
	Optimizer          string             `json:"optimizer"`
	Momentum           float64            `json:"momentum"`
	BatchSize          int                `json:"batch_size"`
	Dropout            float64            `json:"dropout"`
	WeightDecay        float64            `json:"weight_decay"`
	Patience           int                `json:"patience"`
	Workers            int                `json:"workers"`
	Ranks              int                `json:"ranks,omitempty"`
	Seed               uint64             `json:"seed"`
	ClassWeight        string             `json:"class_weight,omitempty"`
	MaxCategories      int                `json:"max_categories"`
	Scale              bool               `json:"scale"`
	ValidationFraction float64            `json:"validation_fraction"`
	TestFraction       float64            `json:"test_fraction"`
	Columns            classifier.Columns `json:"columns"`
}

func (j *clsJob) params() clsParams {
	o := j.spec.opts
	p := clsParams{Architecture: j.spec.arch, Hidden: o.Hidden, Epochs: o.Epochs, LR: o.LR, Optimizer: o.Optimizer,
		Momentum: o.Momentum, BatchSize: o.BatchSize, Dropout: o.Dropout, WeightDecay: o.WeightDecay, Patience: o.Patience,
		Workers: o.Workers, Seed: o.Seed, Scale: !o.RawPixels, ValidationFraction: j.spec.valFraction,
		TestFraction: j.spec.testFraction, MaxCategories: j.spec.maxCategories, Columns: j.cols}
	if j.across != nil {
		p.Ranks = j.across.Ranks()
	}
	if o.Balanced {
		p.ClassWeight = "balanced"
	}
	if j.cols.Split != "" {
		p.TestFraction = 0
	}
	return p
}
