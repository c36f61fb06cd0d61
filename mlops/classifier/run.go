package classifier

import (
	"context"
	"errors"
	"fmt"

	lifecycle "github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// Run is one training run of a classifier or regressor as the training
// lifecycle's model (see the lifecycle's Model, mlops/training): the rows
// read and split, the options, and what the registry records of the
// run. It trains in this process, or across MPI ranks through Across.
type Run struct {
	// Fn names the training function in messages: train_classifier.
	Fn         string
	Options    Options
	Regression bool
	// Auto is architecture 'auto': the linear model fitted beside the
	// network is stored instead when its validation loss is lower.
	Auto    bool
	Columns Columns
	// Record is what the registry records of the run besides its rows
	// and epochs, which Spec adds: its kind, name, hyperparameters,
	// source, deployment policy, session and checkpoint period.
	Record lifecycle.Spec
	// Rows is the number of rows read.
	Rows int
	// FitRows holds the training rows first (TrainRows of them), then the
	// validation rows (IsVal); TestRows the test part.
	FitRows, TestRows Part
	IsVal             []bool
	TrainRows         int
	// DataFingerprint identifies the rows and their split (see
	// Fingerprint).
	DataFingerprint string
	// Across, when set, trains the model across MPI ranks instead of in
	// this process, handing each epoch to seen as well as to run, and
	// returns rank 0's model and the training state after its last epoch.
	Across func(ctx context.Context, run *lifecycle.Run, r *Run, seen func(Epoch)) (*Model, *State, error)
}

// Part is some of the rows read: their features and targets (labels of
// a classifier or values of a regressor).
type Part struct {
	Rows   Source
	Labels []string
	Values []float64
}

// target is the part's targets as training takes them.
func (p Part) target() Target { return Target{Labels: p.Labels, Values: p.Values} }

// Spec describes the run for the registry.
func (r *Run) Spec() lifecycle.Spec {
	s := r.Record
	s.Rows, s.Epochs = int64(r.Rows), r.Options.Epochs
	return s
}

// Fingerprint identifies the rows and their split.
func (r *Run) Fingerprint() string { return r.DataFingerprint }

// Diverged hints at the learning rate.
func (r *Run) Diverged(err *sqlstate.Error) *sqlstate.Error {
	return err.WithHint("Lower lr (it is %g).", r.Options.LR)
}

// Train fits the model, in this process or across the ranks, handing
// each epoch to the lifecycle, and measures it and its baselines on the
// test rows.
func (r *Run) Train(ctx context.Context, run *lifecycle.Run) (*lifecycle.Result, error) {
	var bestVal *float64
	last := r.Options.From
	if last != nil && last.BestLoss == last.BestLoss {
		v := last.BestLoss
		bestVal = &v
	}
	seen := func(e Epoch) {
		if e.ValLoss == e.ValLoss && (bestVal == nil || e.ValLoss < *bestVal) {
			v := e.ValLoss
			bestVal = &v
		}
	}
	var model *Model
	var err error
	if r.Across != nil {
		model, last, err = r.Across(ctx, run, r, seen)
	} else {
		model, err = FitSource(ctx, r.Options, r.FitRows.Rows, r.FitRows.target(), r.IsVal, func(e Epoch) error {
			if err := run.Epoch(r.TrainingEpoch(e)); err != nil {
				return err
			}
			last = e.State()
			seen(e)
			return nil
		})
	}
	if err != nil {
		return nil, FitError(r.Fn, err)
	}
	return r.result(ctx, run, model, last, bestVal)
}

// TrainingEpoch is e as the lifecycle takes it: the validation loss as
// the test loss and the selection loss (the training loss without
// validation rows), the validation accuracy or RMSE besides; its
// snapshot is the model after e with its training state.
func (r *Run) TrainingEpoch(e Epoch) lifecycle.Epoch {
	metric, name := e.ValAccuracy, "val_accuracy"
	if r.Regression {
		metric, name = e.ValRMSE, "val_rmse"
	}
	selection := e.ValLoss
	if selection != selection { // no validation rows
		selection = e.TrainLoss
	}
	elapsed := float64(e.Elapsed.Microseconds()) / 1000
	return lifecycle.Epoch{
		Losses: lifecycle.Losses{Epoch: e.Epoch, Train: e.TrainLoss, Test: e.ValLoss, Selection: selection, ElapsedMS: elapsed,
			Extra: map[string]any{name: lifecycle.Value(metric)}},
		Measure:  "train_loss",
		Metrics:  []any{e.TrainLoss, lifecycle.Value(e.ValLoss), lifecycle.Value(metric)},
		Notice:   fmt.Sprintf("train_loss %.4f val_loss %.4f %s %.4f", e.TrainLoss, e.ValLoss, name, metric),
		Snapshot: func() ([]byte, error) { return r.Artifact(e.Snapshot(), e.State(), e.Epoch) },
	}
}

// Artifact is model m after epoch, with its training state, as the
// version stores it (see EncodeStored).
func (r *Run) Artifact(m *Model, state *State, epoch int) ([]byte, error) {
	return EncodeStored(m, state, epoch, r.Columns)
}

// FitError words an error of the numeric core as fn's, with 22023;
// errors that already carry a SQLSTATE (a cancel, a divergence) and a
// context's end pass as they are.
func FitError(fn string, err error) error {
	if sqlstate.CodeOf(err) != "" || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", fn, err)
}
