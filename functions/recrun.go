//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// recRun is one execution of train_recommender as the training
// lifecycle's model (see training.Model): the job and the ratings it
// read, split. It trains in this process, or across the job's MPI ranks.
type recRun struct {
	*recJob
	train, test recommender.Ratings
}

// start starts an execution of train_recommender through the lifecycle.
func (j *recJob) start(ctx context.Context) (*run, error) {
	return trainRun(ctx, trainingJob(j.c, trainRecommenderName, j.resume()), j.readRun)
}

// resume is the version a resumed run continues; nil for a new run.
func (j *recJob) resume() *training.Resume {
	if j.from == nil {
		return nil
	}
	return &training.Resume{From: j.from.ref, Fingerprint: j.from.fingerprint, AllowDataChange: j.allowDataChange,
		Covers: "The fingerprint covers every rating and their split by test_fraction and seed."}
}

// readRun reads the ratings and splits them, reserving their memory and
// then that of the item tables and the optimiser's state.
func (j *recJob) readRun(ctx context.Context, mem *training.Memory) (training.Model, error) {
	all, err := j.ratings(ctx, mem)
	if err != nil {
		return nil, err
	}
	train, test := recommender.Split(all, j.testFraction, j.cfg.Seed)
	all = recommender.Ratings{}
	// Reading left garbage the size of the ratings twice over (the triples
	// and the unsplit rows); return it before training, not at the next
	// collection, which would let the heap double first.
	debug.FreeOSMemory()
	if train.Len() == 0 || test.Len() == 0 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: test_fraction := %g of %d ratings leaves %d to train on and %d to test",
			trainRecommenderName, j.testFraction, train.Len()+test.Len(), train.Len(), test.Len()).
			WithHint("Training needs at least one rating on each side.")
	}
	j.cfg = j.cfg.ForItems(train.Items) // negatives chosen by the items, as recorded
	if err := mem.Reserve(ctx, recommender.TablesBytes(j.cfg, train.Items), fmt.Sprintf("%s's item tables and optimiser state (%d items, hidden %v, %s)",
		trainRecommenderName, train.Items, j.cfg.Hidden, j.cfg.Optimizer)); err != nil {
		return nil, err
	}
	return &recRun{recJob: j, train: train, test: test}, nil
}

// Fingerprint identifies the ratings and their split.
func (r *recRun) Fingerprint() string { return recommender.Fingerprint(r.train, r.test) }

// Prepare checks that a resumed run trains on the items its checkpoint
// has weights for.
func (r *recRun) Prepare(context.Context) error {
	if r.from == nil {
		return nil
	}
	return r.checkItems(r.train)
}

// Spec describes the run for mlops.training_runs and mlops.models.
func (r *recRun) Spec() training.Spec {
	return training.Spec{Kind: recommenderKind, Name: r.name, Params: r.params(), Source: r.src.text,
		Rows: int64(r.train.Len() + r.test.Len()), Entities: int64(r.train.Users), Epochs: r.cfg.Epochs,
		CheckpointEvery: r.checkpointEvery, Deploy: r.deploy, Session: r.c.caller.ID()}
}

// fit are the ratings the network trains on: the users held out for
// evaluate's protocol 'users' never train.
func (r *recRun) fit() recommender.Ratings {
	if h := r.cfg.HoldOutUsers; h > 0 {
		return recommender.WithoutUsers(r.train, recommender.HeldOutUsers(r.train, r.test, h, r.cfg.Seed))
	}
	return r.train
}

// Train trains the network in this process or across the ranks, then
// measures it against the baselines.
func (r *recRun) Train(ctx context.Context, run *training.Run) (*training.Result, error) {
	if r.mpi != nil {
		return r.trainMPI(ctx, run)
	}
	model, err := recommender.TrainFrom(ctx, r.cfg, r.fit(), r.test, r.startPoint(), func(e recommender.Epoch) error {
		return run.Epoch(r.epoch(&e, float64(e.Elapsed.Microseconds())/1000, recommender.WorkerTimes(e.Workers), func() ([]byte, error) {
			return r.artifact(e.Snapshot(), r.train, r.test, e.Epoch)
		}))
	})
	if err != nil {
		return nil, err
	}
	debug.FreeOSMemory() // the trainer's tables and moments, before the artifact is encoded
	return r.result(ctx, model, r.train, r.test)
}

// epoch is e as the lifecycle takes it: the test RMSE as the test loss,
// or for the ranking objectives 1 − NDCG@10, the ranking metrics besides;
// its row's metrics train_rmse, test_rmse, recall_at_10, ndcg_at_10; and
// its NOTICE, with suffix after it.
func (r *recRun) epoch(e *recommender.Epoch, elapsedMS float64, suffix string, snapshot func() ([]byte, error)) training.Epoch {
	trainLoss, testLoss, measure := e.TrainRMSE, recommender.SelectionLoss(r.cfg.Objective, *e), "train_rmse"
	if recommender.IsRanking(r.cfg.Objective) {
		trainLoss, measure = e.TrainLoss, "train_loss"
	}
	return training.Epoch{
		Losses: training.Losses{Epoch: e.Epoch, Train: trainLoss, Test: testLoss, Selection: testLoss, ElapsedMS: elapsedMS,
			Extra: map[string]any{"recall_at_10": nullIfNaN(e.RecallAt10), "ndcg_at_10": nullIfNaN(e.NDCGAt10)}},
		Measure:  measure,
		Metrics:  []any{nullIfNaN(e.TrainRMSE), nullIfNaN(e.TestRMSE), nullIfNaN(e.RecallAt10), nullIfNaN(e.NDCGAt10)},
		Notice:   fmt.Sprintf("%s recall_at_10 %.4f ndcg_at_10 %.4f%s", r.losses(e), e.RecallAt10, e.NDCGAt10, suffix),
		Snapshot: snapshot,
	}
}

// Diverged hints at the learning rate.
func (r *recRun) Diverged(err *sqlstate.Error) *sqlstate.Error {
	return err.WithHint("Lower lr (it is %g).", r.cfg.LR)
}

func nullIfNaN(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}

// artifact is the model after epoch, as stored (see
// recommender.EncodeStored), with the source's columns.
func (j *recJob) artifact(model *recommender.Model, train, test recommender.Ratings, epoch int) ([]byte, error) {
	return recommender.EncodeStored(model, train, test, epoch, j.cols)
}
