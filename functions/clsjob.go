//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"math"
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

// clsRun is one execution as the training lifecycle's model (see
// training.Model): the rows read and split. fit holds the training rows
// first, then the validation rows (isVal); test the test part; their
// features are views of all's spilled rows.
type clsRun struct {
	*clsJob
	all         clsData
	fit, test   clsPart
	isVal       []bool
	trainRows   int
	fingerprint string
}

// clsPart is some of the rows read: their features (a view of the
// spilled rows) and targets.
type clsPart struct {
	rows   classifier.Source
	labels []string
	values []float64
}

// part is the rows idx of d.
func (d clsData) part(idx []int) clsPart {
	return clsPart{rows: classifier.Rows(d.rows, idx), labels: pick(d.labels, idx), values: pick(d.values, idx)}
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
	r := &clsRun{clsJob: j, all: d, isVal: make([]bool, len(fitRows)), trainRows: len(train), fit: d.part(fitRows), test: d.part(test)}
	for i := len(train); i < len(fitRows); i++ {
		r.isVal[i] = true
	}
	if r.fingerprint, err = d.fingerprint(ctx, j.cols); err != nil {
		return nil, j.fitError(err)
	}
	if err := j.reserveTraining(ctx, mem, d); err != nil {
		return nil, err
	}
	return r, nil
}

// Spec describes the run for mlops.training_runs and mlops.models.
func (r *clsRun) Spec() training.Spec {
	return training.Spec{Kind: r.spec.kind, Name: r.spec.name, Params: r.params(), Source: r.src.text,
		Rows: int64(len(r.all.labels) + len(r.all.values)), Epochs: r.spec.opts.Epochs,
		CheckpointEvery: r.spec.checkpoint, Deploy: r.spec.deploy, Session: r.c.caller.ID()}
}

// Fingerprint identifies the rows and their split.
func (r *clsRun) Fingerprint() string { return r.fingerprint }

// Diverged hints at the learning rate.
func (r *clsRun) Diverged(err *sqlstate.Error) *sqlstate.Error {
	return err.WithHint("Lower lr (it is %g).", r.spec.opts.LR)
}

// Train fits the model, in this process or across the ranks, handing
// each epoch to the lifecycle, and measures it and its baselines on the
// test rows.
func (r *clsRun) Train(ctx context.Context, run *training.Run) (*training.Result, error) {
	var bestVal *float64
	last := r.spec.opts.From
	if last != nil && last.BestLoss == last.BestLoss {
		v := last.BestLoss
		bestVal = &v
	}
	seen := func(e classifier.Epoch) {
		if e.ValLoss == e.ValLoss && (bestVal == nil || e.ValLoss < *bestVal) {
			v := e.ValLoss
			bestVal = &v
		}
	}
	var model *classifier.Model
	var err error
	if r.across != nil {
		model, last, err = r.trainAcross(ctx, run, seen)
	} else {
		target := classifier.Target{Labels: r.fit.labels, Values: r.fit.values}
		model, err = classifier.FitSource(ctx, r.spec.opts, r.fit.rows, target, r.isVal, func(e classifier.Epoch) error {
			if err := run.Epoch(r.epoch(e)); err != nil {
				return err
			}
			last = e.State()
			seen(e)
			return nil
		})
	}
	if err != nil {
		return nil, r.fitError(err)
	}
	return r.result(ctx, run, model, last, bestVal)
}

// epoch is e as the lifecycle takes it: the validation loss as the test
// loss and the selection loss (the training loss without validation
// rows), the validation accuracy or RMSE besides.
func (r *clsRun) epoch(e classifier.Epoch) training.Epoch {
	metric, name := e.ValAccuracy, "val_accuracy"
	if r.spec.regression {
		metric, name = e.ValRMSE, "val_rmse"
	}
	selection := e.ValLoss
	if selection != selection { // no validation rows
		selection = e.TrainLoss
	}
	elapsed := float64(e.Elapsed.Microseconds()) / 1000
	return training.Epoch{
		Losses: training.Losses{Epoch: e.Epoch, Train: e.TrainLoss, Test: e.ValLoss, Selection: selection, ElapsedMS: elapsed,
			Extra: map[string]any{name: nullIfNaN(metric)}},
		Measure:  "train_loss",
		Metrics:  []any{e.TrainLoss, nullIfNaN(e.ValLoss), nullIfNaN(metric)},
		Notice:   fmt.Sprintf("train_loss %.4f val_loss %.4f %s %.4f", e.TrainLoss, e.ValLoss, name, metric),
		Snapshot: func() ([]byte, error) { return r.artifact(e.Snapshot(), e.State(), e.Epoch) },
	}
}

// fitError words an error of the numeric core as the function's; errors
// that already carry a SQLSTATE (a cancel, a divergence) and a context's
// end pass as they are.
func (j *clsJob) fitError(err error) error {
	if sqlstate.CodeOf(err) != "" || ctxErr(err) {
		return err
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", j.spec.fn, err)
}

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

func nullIfNaN(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}
