//go:build duckdb_arrow

package functions

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

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
	r := &recommender.Run{Fn: trainRecommenderName, Config: j.cfg, TrainRatings: train, TestRatings: test, Columns: j.cols,
		Record: training.Spec{Kind: recommenderKind, Name: j.name, Params: j.params(), Source: j.src.text,
			CheckpointEvery: j.checkpointEvery, Deploy: j.deploy, Session: j.c.caller.ID()}}
	if j.from != nil {
		r.From = &recommender.Resumed{Ref: j.from.ref, Model: j.from.model, Epoch: j.from.epoch}
	}
	if j.mpi != nil {
		r.Across = j.trainAcross
	}
	return r, nil
}
