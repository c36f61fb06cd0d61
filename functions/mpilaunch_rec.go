//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// trainMPI trains the recommender across the ranks of j.mpi instead of in
// this process: this process splits the ratings as a local run does and
// exports them sharded by user to the job directory with the statistics
// that must be over every rating (recommender.ShardOf), each rank reads
// only its own users' ratings, and the ranks train what workers := ranks
// x workers trains here (the curve to 1e-9). Rank 0's epochs are
// recorded, sent as NOTICEs and emitted as a local run's are; the model
// it stores is then measured and stored as a local run's is, and so are
// its checkpoints (see checkpointAcross). A resumed run's ranks start from
// the resumed version's model, which this server writes into the job.
func (j *recJob) trainMPI(ctx context.Context, tr *registry.Training, train, test recommender.Ratings,
	emit func(row ...any) error) (*registry.Result, error) {
	perRank := j.cfg.Workers / j.mpi.ranks
	hyper := j.cfg
	hyper.Workers = perRank
	raw, err := json.Marshal(hyper)
	if err != nil {
		return nil, err
	}
	fit := train // the users held out for evaluate's protocol 'users' never train, as in a local run
	if h := j.cfg.HoldOutUsers; h > 0 {
		fit = recommender.WithoutUsers(train, recommender.HeldOutUsers(train, test, h, j.cfg.Seed))
	}
	shard := recommender.ShardOf(j.cfg, fit, test, j.mpi.ranks)
	spec := job.Spec{Kind: job.KindRecommender, Seed: j.cfg.Seed, Workers: perRank, Recommender: raw, Shard: job.ShardFile,
		CheckpointEvery: j.checkpointEvery, CheckpointBest: j.checkpointEvery == 0, CheckpointFiles: true}
	if j.from != nil {
		spec.Start, spec.StartEpoch = startFile, j.from.epoch
	}
	export := func(ctx context.Context, dir string) error {
		if err := job.WriteShards(ctx, dir, fit, test, shard); err != nil {
			return sqlstate.New(sqlstate.IOError, "%s: export the source to the job directory under --job-dir %s: %v", trainRecommenderName, j.mpi.jobDir, err)
		}
		return j.exportStart(dir)
	}
	data, err := j.mpi.run(ctx, spec, export, func(dir string, p job.Progress) error {
		e := recommender.Epoch{Epoch: p.Epoch, TrainRMSE: metricOf(p, "train_rmse"), TestRMSE: metricOf(p, "test_rmse"),
			TrainLoss: metricOf(p, "train_loss"), RecallAt10: metricOf(p, "recall_at_10"), NDCGAt10: metricOf(p, "ndcg_at_10"),
			Elapsed: time.Duration(p.ElapsedMS) * time.Millisecond}
		best, err := j.recordEpoch(tr, &e)
		if err != nil {
			return err
		}
		if err := j.checkpointAcross(tr, fit, train, test, dir, e.Epoch, best); err != nil {
			return err
		}
		j.c.caller.Notice(fmt.Sprintf("%s %s: epoch %d %s recall_at_10 %.4f ndcg_at_10 %.4f; %d ranks",
			trainRecommenderName, tr.Ref(), e.Epoch, j.losses(&e), e.RecallAt10, e.NDCGAt10, j.mpi.ranks))
		return emit(int64(e.Epoch), nullIfNaN(e.TrainRMSE), nullIfNaN(e.TestRMSE), nullIfNaN(e.RecallAt10), nullIfNaN(e.NDCGAt10),
			best, float64(p.ElapsedMS))
	})
	if err != nil {
		return nil, err
	}
	model, err := recommender.Unmarshal(data)
	if err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's model: %v", trainRecommenderName, err)
	}
	if model.Items != train.Items {
		return nil, sqlstate.New(sqlstate.InternalError, "%s: the ranks trained a model of %d items, this server read %d",
			trainRecommenderName, model.Items, train.Items)
	}
	model.ItemIDs, model.UserIDs = fit.ItemIDs, fit.UserIDs // the ranks knew the users and items by index only
	return j.result(ctx, model, train, test)
}

// exportStart writes the model a resumed run goes on from into the job
// in dir as its start (see job.Spec.Start); nothing for a new run.
func (j *recJob) exportStart(dir string) error {
	if j.from == nil {
		return nil
	}
	data, err := j.from.model.Marshal()
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, startFile), data, 0o644)
	}
	if err != nil {
		return j.mpi.dirError(err)
	}
	return nil
}

// recordEpoch records an epoch of a run across ranks as record does, with
// no checkpoint: the model is in the ranks.
func (j *recJob) recordEpoch(tr *registry.Training, e *recommender.Epoch) (bool, error) {
	l, err := j.registryLosses(e)
	if err != nil {
		return false, err
	}
	return tr.Epoch(l.Epoch, l.Train, l.Test, l.Selection, l.ElapsedMS, l.Extra)
}

// launchAcross prepares the run's launch across ranks when ranks := N is
// above 1: workers := W is then each rank's, and the run trains what
// ranks x W workers train in one process.
func (j *recJob) launchAcross(a args) error {
	ranks := int(a.int("ranks"))
	if ranks <= 1 {
		return nil
	}
	l, err := j.c.mpiLaunchOf(trainRecommenderName, ranks)
	if err != nil {
		return err
	}
	j.mpi, j.cfg.Workers = l, ranks*j.cfg.Workers
	if err := j.cfg.Validate(); err != nil {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: ranks := %d x workers := %d: %v", trainRecommenderName, ranks, j.cfg.Workers/ranks, err)
	}
	return nil
}

// ranks is the number of MPI ranks the run trains across, as its
// parameters record it: 0 (left out) for a run in this process.
func (j *recJob) ranks() int {
	if j.mpi == nil {
		return 0
	}
	return j.mpi.ranks
}

// checkpointAcross stores rank 0's checkpoint of epoch as the version's
// when the registry's rule (see registry.Training.Record) makes one due,
// as gatJob.checkpointAcross does: rank 0 writes the model alone, by the
// same rule, before the epoch's progress line, and this server completes
// it with the ratings as a local run's checkpoint is.
func (j *recJob) checkpointAcross(tr *registry.Training, fit, train, test recommender.Ratings, dir string, epoch int, best bool) error {
	data := rankCheckpoint(dir, epoch, j.checkpointEvery, j.cfg.Epochs, best)
	if data == nil {
		return nil
	}
	model, err := recommender.Unmarshal(data)
	if err != nil {
		return sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's checkpoint: %v", trainRecommenderName, err)
	}
	model.ItemIDs, model.UserIDs = fit.ItemIDs, fit.UserIDs
	if data, err = j.artifact(model, train, test, epoch); err != nil {
		return err
	}
	return tr.Checkpoint(epoch, data)
}

// startFile is the checkpoint a resumed recommender run across ranks
// starts from, in its job directory.
const startFile = "start.artifact"
