//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// clsJob is one execution of train_classifier or train_regressor. It
// follows train_recommender's job (read, check, Begin, stream, result)
// until the models share one training lifecycle.
type clsJob struct {
	c    *call
	spec *clsSpec
	src  *source
	cols clsColumns
	// reserved gives back the memory the execution reserved in the
	// server's budget; nil when none.
	reserved func()
}

// clsData are a source's rows as read: the features, the target (labels
// of a classifier or values of a regressor) and, with a split column,
// each row's part.
type clsData struct {
	table  *classifier.Table
	labels []string
	values []float64
	parts  []string
}

// Parts of a split column's values.
const (
	partTrain      = "train"
	partValidation = "validation"
	partTest       = "test"
)

func (j *clsJob) start(ctx context.Context) (r *run, err error) {
	defer func() {
		if r == nil {
			j.release()
		}
	}()
	d, err := j.read(ctx)
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
	isVal := make([]bool, len(fitRows))
	for i := len(train); i < len(isVal); i++ {
		isVal[i] = true
	}
	fit := clsData{table: subset(d.table, fitRows), labels: pick(d.labels, fitRows), values: pick(d.values, fitRows)}
	held := clsData{table: subset(d.table, test), labels: pick(d.labels, test), values: pick(d.values, test)}
	spec := registry.Spec{Kind: j.spec.kind, Name: j.spec.name, Params: j.params(), Source: j.src.text,
		Fingerprint: clsFingerprint(d, j.cols), Rows: int64(len(d.labels) + len(d.values)), Epochs: j.spec.opts.Epochs,
		CheckpointEvery: j.spec.checkpoint, Deploy: j.spec.deploy, Session: j.c.caller.ID()}
	tr, err := j.c.reg.Begin(ctx, spec)
	if err != nil {
		return nil, err
	}
	return stream(j.c, j.spec.fn, tr, func(ctx context.Context, emit func(row ...any) error) (*registry.Result, error) {
		defer j.release()
		return j.train(ctx, tr, fit, isVal, held, len(train), emit)
	}), nil
}

// train fits the model, recording and emitting each epoch, and measures
// it and its baseline on the test rows.
func (j *clsJob) train(ctx context.Context, tr *registry.Training, fit clsData, isVal []bool, test clsData, trainRows int,
	emit func(row ...any) error) (*registry.Result, error) {
	var bestVal *float64
	target := classifier.Target{Labels: fit.labels, Values: fit.values}
	model, err := classifier.Fit(ctx, j.spec.opts, fit.table, target, isVal, func(e classifier.Epoch) error {
		metric, name := e.ValAccuracy, "val_accuracy"
		if j.spec.regression {
			metric, name = e.ValRMSE, "val_rmse"
		}
		if err := diverged(j.spec.fn, "train_loss", e.TrainLoss, e.Epoch); err != nil {
			return err.WithHint("Lower lr (it is %g).", j.spec.opts.LR)
		}
		selection := e.ValLoss
		if selection != selection { // no validation rows
			selection = e.TrainLoss
		}
		l := registry.Losses{Epoch: e.Epoch, Train: e.TrainLoss, Test: e.ValLoss, Selection: selection,
			ElapsedMS: float64(e.Elapsed.Microseconds()) / 1000, Extra: map[string]any{name: nullIfNaN(metric)}}
		best, err := tr.Record(l, func() ([]byte, error) { return j.artifact(e.Snapshot(), e.Epoch) })
		if err != nil {
			return err
		}
		if best && e.ValLoss == e.ValLoss {
			v := e.ValLoss
			bestVal = &v
		}
		j.c.caller.Notice(fmt.Sprintf("%s %s: epoch %d train_loss %.4f val_loss %.4f %s %.4f", j.spec.fn, tr.Ref(),
			e.Epoch, e.TrainLoss, e.ValLoss, name, metric))
		return emit(int64(e.Epoch), e.TrainLoss, nullIfNaN(e.ValLoss), nullIfNaN(metric), best, float64(e.Elapsed.Microseconds())/1000)
	})
	if err != nil {
		return nil, j.fitError(err)
	}
	return j.result(ctx, model, fit, isVal, trainRows, test, bestVal)
}

// fitError words an error of the numeric core as the function's; errors
// that already carry a SQLSTATE (a cancel, a divergence) pass as they are.
func (j *clsJob) fitError(err error) error {
	if sqlstate.CodeOf(err) != "" || ctxErr(err) {
		return err
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", j.spec.fn, err)
}

// release gives back what the execution reserved.
func (j *clsJob) release() {
	if j.reserved != nil {
		j.reserved()
		j.reserved = nil
	}
}

// split assigns the rows to training, validation and test: by the split
// column, or by a permutation the seed draws (test_fraction of the rows
// to test, validation_fraction to validation). A split column without
// validation rows has validation_fraction of its training rows drawn.
func (j *clsJob) split(d clsData) (train, val, test []int, err error) {
	n := len(d.labels) + len(d.values)
	rng := rand.New(rand.NewPCG(j.spec.opts.Seed, 0x5b117))
	if d.parts == nil {
		perm := rng.Perm(n)
		nt := int(j.spec.testFraction * float64(n))
		nv := int(j.spec.valFraction * float64(n))
		test, val, train = perm[:nt], perm[nt:nt+nv], perm[nt+nv:]
		slices.Sort(train)
		slices.Sort(val)
		slices.Sort(test)
	} else {
		for r, p := range d.parts {
			switch p {
			case partTrain:
				train = append(train, r)
			case partValidation:
				val = append(val, r)
			default:
				test = append(test, r)
			}
		}
		if len(val) == 0 && j.spec.valFraction > 0 {
			perm := rng.Perm(len(train))
			nv := int(j.spec.valFraction * float64(len(train)))
			for _, k := range perm[:nv] {
				val = append(val, train[k])
			}
			slices.Sort(val)
			train = slices.DeleteFunc(train, func(r int) bool { _, found := slices.BinarySearch(val, r); return found })
		}
	}
	if len(train) == 0 {
		return nil, nil, nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the split of %d rows leaves none to train on", j.spec.fn, n).
			WithHint("Training needs at least one training row.")
	}
	return train, val, test, nil
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
	Architecture       string     `json:"architecture"`
	Hidden             []int      `json:"hidden"`
	Epochs             int        `json:"epochs"`
	LR                 float64    `json:"lr"`
	Optimizer          string     `json:"optimizer"`
	Momentum           float64    `json:"momentum"`
	BatchSize          int        `json:"batch_size"`
	Dropout            float64    `json:"dropout"`
	WeightDecay        float64    `json:"weight_decay"`
	Patience           int        `json:"patience"`
	Workers            int        `json:"workers"`
	Seed               uint64     `json:"seed"`
	ClassWeight        string     `json:"class_weight,omitempty"`
	Scale              bool       `json:"scale"`
	ValidationFraction float64    `json:"validation_fraction"`
	TestFraction       float64    `json:"test_fraction"`
	Columns            clsColumns `json:"columns"`
}

func (j *clsJob) params() clsParams {
	o := j.spec.opts
	p := clsParams{Architecture: j.spec.arch, Hidden: o.Hidden, Epochs: o.Epochs, LR: o.LR, Optimizer: o.Optimizer,
		Momentum: o.Momentum, BatchSize: o.BatchSize, Dropout: o.Dropout, WeightDecay: o.WeightDecay, Patience: o.Patience,
		Workers: o.Workers, Seed: o.Seed, Scale: !o.RawPixels, ValidationFraction: j.spec.valFraction,
		TestFraction: j.spec.testFraction, Columns: j.cols}
	if o.Balanced {
		p.ClassWeight = "balanced"
	}
	if j.cols.Split != "" {
		p.TestFraction = 0
	}
	return p
}

// splitPart reads a split column's value: train, validation (or val) or
// test, case-insensitively; false for anything else.
func splitPart(v string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "train", "training":
		return partTrain, true
	case "validation", "val", "valid":
		return partValidation, true
	case "test", "testing":
		return partTest, true
	}
	return "", false
}
