package recommender

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/mallard/mallard/mlops"
	lifecycle "github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// Run is one training run of a recommender as the training lifecycle's
// model (see lifecycle.Model): the ratings read and split, the
// configuration, and what the registry records of the run. It trains in
// this process, or across MPI ranks through Across.
type Run struct {
	// Fn names the training function in messages: train_recommender.
	Fn     string
	Config Config
	// TrainRatings and TestRatings are the ratings, split.
	TrainRatings, TestRatings Ratings
	Columns                   Columns
	// Record is what the registry records of the run besides its data's
	// sizes and its epochs, which Spec adds: its kind, name,
	// hyperparameters, source, deployment policy, session and checkpoint
	// period.
	Record lifecycle.Spec
	// From is the version a resumed run continues; nil for a new run.
	From *Resumed
	// Across, when set, trains the network across MPI ranks instead of in
	// this process and returns rank 0's model, its ids set; the run then
	// measures and stores it as a local run's.
	Across func(ctx context.Context, run *lifecycle.Run, r *Run) (*Model, error)
}

// Resumed is the version a resumed run goes on from: its model after the
// epochs it had trained.
type Resumed struct {
	Ref   mlops.Ref
	Model *Model
	Epoch int
}

// Spec describes the run for the registry.
func (r *Run) Spec() lifecycle.Spec {
	s := r.Record
	s.Rows, s.Entities, s.Epochs = int64(r.TrainRatings.Len()+r.TestRatings.Len()), int64(r.TrainRatings.Users), r.Config.Epochs
	return s
}

// Fingerprint identifies the ratings and their split.
func (r *Run) Fingerprint() string { return Fingerprint(r.TrainRatings, r.TestRatings) }

// Prepare checks that a resumed run trains on the items its checkpoint
// has a row of weights for, in the same order. (The lifecycle checks the
// data's fingerprint; see lifecycle.Resume.)
func (r *Run) Prepare(context.Context) error {
	if r.From == nil {
		return nil
	}
	had, has := r.From.Model.ItemIDs, r.TrainRatings.ItemIDs
	same := had != nil && has != nil && had.Len() == has.Len()
	for k := 0; same && k < had.Len(); k++ {
		same = had.At(k) == has.At(k)
	}
	if !same {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: resume: the source's items differ from those %s was trained on",
			r.Fn, r.From.Ref).WithDetail("It has weights for %d items; the ratings to train on have %d%s.",
			r.From.Model.Items, r.TrainRatings.Items, firstItemDiff(had, has)).
			WithHint("The network has a row of weights per item: resume on ratings of the same items, or train a new model.")
	}
	return nil
}

// firstItemDiff names the first item where two lists of items differ.
func firstItemDiff(had, has *IDs) string {
	if had == nil || has == nil {
		return ""
	}
	for k := range min(had.Len(), has.Len()) {
		if had.At(k) != has.At(k) {
			return fmt.Sprintf("; the first to differ is item %s, where it had %s", has.At(k), had.At(k))
		}
	}
	return ""
}

// Fit are the ratings the network trains on: the users held out for
// evaluate's protocol 'users' never train.
func (r *Run) Fit() Ratings {
	if h := r.Config.HoldOutUsers; h > 0 {
		return WithoutUsers(r.TrainRatings, HeldOutUsers(r.TrainRatings, r.TestRatings, h, r.Config.Seed))
	}
	return r.TrainRatings
}

// startPoint is where the run's training begins: from scratch, or from
// the resumed version's model after its epochs.
func (r *Run) startPoint() Start {
	if r.From == nil {
		return Start{}
	}
	return Start{Model: r.From.Model, Epoch: r.From.Epoch}
}

// Train trains the network in this process or across the ranks, then
// measures it against the baselines.
func (r *Run) Train(ctx context.Context, run *lifecycle.Run) (*lifecycle.Result, error) {
	var model *Model
	var err error
	if r.Across != nil {
		model, err = r.Across(ctx, run, r)
	} else {
		model, err = TrainFrom(ctx, r.Config, r.Fit(), r.TestRatings, r.startPoint(), func(e Epoch) error {
			return run.Epoch(r.TrainingEpoch(&e, float64(e.Elapsed.Microseconds())/1000, WorkerTimes(e.Workers), func() ([]byte, error) {
				return r.Artifact(e.Snapshot(), e.Epoch)
			}))
		})
		if err == nil {
			debug.FreeOSMemory() // the trainer's tables and moments, before the artifact is encoded
		}
	}
	if err != nil {
		return nil, err
	}
	return r.result(ctx, model)
}

// result measures the trained model against the baselines and stores it.
func (r *Run) result(ctx context.Context, model *Model) (*lifecycle.Result, error) {
	m, err := Measure(ctx, model, r.TrainRatings, r.TestRatings, r.Config.Objective, EvaluateUsers)
	if err != nil {
		return nil, err
	}
	data, err := r.Artifact(model, r.Config.Epochs)
	if err != nil {
		return nil, err
	}
	return &lifecycle.Result{Artifact: data, Epoch: r.Config.Epochs, Metrics: m.Metrics, TestLoss: m.TestLoss, Report: m.Report}, nil
}

// Artifact is model after epoch as the version stores it, with the run's
// ratings and columns (see EncodeStored).
func (r *Run) Artifact(model *Model, epoch int) ([]byte, error) {
	return EncodeStored(model, r.TrainRatings, r.TestRatings, epoch, r.Columns)
}

// TrainingEpoch is e as the lifecycle takes it: the test RMSE as the
// test loss, or for the ranking objectives 1 − NDCG@10, the ranking
// metrics besides; its row's metrics train_rmse, test_rmse,
// recall_at_10, ndcg_at_10; and its NOTICE, with suffix after it.
func (r *Run) TrainingEpoch(e *Epoch, elapsedMS float64, suffix string, snapshot func() ([]byte, error)) lifecycle.Epoch {
	trainLoss, testLoss, measure := e.TrainRMSE, SelectionLoss(r.Config.Objective, *e), "train_rmse"
	if IsRanking(r.Config.Objective) {
		trainLoss, measure = e.TrainLoss, "train_loss"
	}
	return lifecycle.Epoch{
		Losses: lifecycle.Losses{Epoch: e.Epoch, Train: trainLoss, Test: testLoss, Selection: testLoss, ElapsedMS: elapsedMS,
			Extra: map[string]any{"recall_at_10": lifecycle.Value(e.RecallAt10), "ndcg_at_10": lifecycle.Value(e.NDCGAt10)}},
		Measure:  measure,
		Metrics:  []any{lifecycle.Value(e.TrainRMSE), lifecycle.Value(e.TestRMSE), lifecycle.Value(e.RecallAt10), lifecycle.Value(e.NDCGAt10)},
		Notice:   fmt.Sprintf("%s recall_at_10 %.4f ndcg_at_10 %.4f%s", r.losses(e), e.RecallAt10, e.NDCGAt10, suffix),
		Snapshot: snapshot,
	}
}

// Diverged hints at the learning rate.
func (r *Run) Diverged(err *sqlstate.Error) *sqlstate.Error {
	return err.WithHint("Lower lr (it is %g).", r.Config.LR)
}

// losses is the epoch's losses as its NOTICE tells them: the RMSEs, or
// for the ranking objectives the training loss (see Epoch).
func (r *Run) losses(e *Epoch) string {
	if IsRanking(r.Config.Objective) {
		return fmt.Sprintf("train_loss %.4f", e.TrainLoss)
	}
	return fmt.Sprintf("train_rmse %.4f test_rmse %.4f", e.TrainRMSE, e.TestRMSE)
}
