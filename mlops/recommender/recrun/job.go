// Package recrun is a recommender's training run as train_recommender
// starts it: the ratings it is handed read and split, the memory they and
// the network's tables take reserved, what the registry records of the
// run, a resumed run's start, and training across MPI ranks. It sits
// beside package recommender, not in it, because training across ranks
// goes through package job, which imports recommender. It reaches the
// data through the Reader it is given and writes no SQL.
package recrun

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

const (
	// Fn is the training function, as messages name it.
	Fn = "train_recommender"
	// Kind is the kind mlops.models records for a recommender.
	Kind = "recommender"
)

// Reader reads the ratings a run trains on. It calls reserve with their
// number before it reads them, and fails with reserve's error.
type Reader func(ctx context.Context, reserve func(n int64) error) (recommender.Ratings, error)

// Job is one execution of train_recommender, its arguments bound.
type Job struct {
	Config          recommender.Config
	Name            string
	Columns         recommender.Columns
	TestFraction    float64
	MinUserRatings  int64
	Duplicates      recommender.Duplicates
	Deploy          string
	CheckpointEvery int
	// Source is the source as the caller gave it, and Session the
	// calling session, as the registry records them.
	Source  string
	Session uint64
	// Read reads the ratings.
	Read Reader
	// MPI launches the run across MPI ranks; nil trains in this process.
	MPI *training.Launch
	// From is the version a resumed run continues; nil for a new run.
	From            *Start
	AllowDataChange bool
}

// Resume is the version a resumed run continues; nil for a new run.
func (j *Job) Resume() *training.Resume {
	if j.From == nil {
		return nil
	}
	return &training.Resume{From: j.From.Ref, Fingerprint: j.From.Fingerprint, AllowDataChange: j.AllowDataChange,
		Covers: "The fingerprint covers every rating and their split by test_fraction and seed."}
}

// ReadRun reads the ratings and splits them, reserving their memory and
// then that of the item tables and the optimiser's state (see
// training.Start).
func (j *Job) ReadRun(ctx context.Context, mem *training.Memory) (training.Model, error) {
	all, err := j.Read(ctx, func(n int64) error {
		return mem.Reserve(ctx, recommender.RatingsBytes(n), fmt.Sprintf("%s's ratings (%d)", Fn, n))
	})
	if err != nil {
		return nil, err
	}
	train, test := recommender.Split(all, j.TestFraction, j.Config.Seed)
	all = recommender.Ratings{}
	// Reading left garbage the size of the ratings twice over (the triples
	// and the unsplit rows); return it before training, not at the next
	// collection, which would let the heap double first.
	debug.FreeOSMemory()
	if train.Len() == 0 || test.Len() == 0 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: test_fraction := %g of %d ratings leaves %d to train on and %d to test",
			Fn, j.TestFraction, train.Len()+test.Len(), train.Len(), test.Len()).
			WithHint("Training needs at least one rating on each side.")
	}
	j.Config = j.Config.ForItems(train.Items) // negatives chosen by the items, as recorded
	if err := mem.Reserve(ctx, recommender.TablesBytes(j.Config, train.Items), fmt.Sprintf("%s's item tables and optimiser state (%d items, hidden %v, %s)",
		Fn, train.Items, j.Config.Hidden, j.Config.Optimizer)); err != nil {
		return nil, err
	}
	r := &recommender.Run{Fn: Fn, Config: j.Config, TrainRatings: train, TestRatings: test, Columns: j.Columns,
		Record: training.Spec{Kind: Kind, Name: j.Name, Params: j.Params(), Source: j.Source,
			CheckpointEvery: j.CheckpointEvery, Deploy: j.Deploy, Session: j.Session}}
	if j.From != nil {
		r.From = &recommender.Resumed{Ref: j.From.Ref, Model: j.From.Model, Epoch: j.From.Epoch}
	}
	if j.MPI != nil {
		r.Across = j.trainAcross
	}
	return r, nil
}

// Params are the run's hyperparameters as recorded.
func (j *Job) Params() Params {
	return Params{j.Config, j.Columns, j.TestFraction, j.MinUserRatings, j.Duplicates.String(), j.Ranks()}
}

// Ranks is the number of MPI ranks the run trains across, as its
// parameters record it: 0 (left out) for a run in this process.
func (j *Job) Ranks() int {
	if j.MPI == nil {
		return 0
	}
	return j.MPI.Ranks()
}
