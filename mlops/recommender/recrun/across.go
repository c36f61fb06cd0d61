package recrun

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// startFile is the checkpoint a resumed recommender run across ranks
// starts from, in its job directory.
const startFile = "start.artifact"

// trainAcross trains the recommender of run r across the ranks of j.MPI
// instead of in this process (see recommender.Run.Across): this process
// splits the ratings as a local run does and exports them sharded by
// user to the job directory with the statistics that must be over every
// rating (recommender.ShardOf), each rank reads only its own users'
// ratings, and the ranks train what workers := ranks x workers trains
// here (the curve to 1e-9). Rank 0's epochs are recorded, sent as NOTICEs
// and emitted as a local run's are, and so are its checkpoints (see
// rankCheckpoint); it returns rank 0's model. A resumed run's ranks start
// from the resumed version's model, which this server writes into the
// job.
func (j *Job) trainAcross(ctx context.Context, run *training.Run, r *recommender.Run) (*recommender.Model, error) {
	perRank := r.Config.Workers / j.MPI.Ranks()
	hyper := r.Config
	hyper.Workers = perRank
	raw, err := json.Marshal(hyper)
	if err != nil {
		return nil, err
	}
	fit := r.Fit() // the users held out for evaluate's protocol 'users' never train, as in a local run
	shard := recommender.ShardOf(r.Config, fit, r.TestRatings, j.MPI.Ranks())
	spec := job.Spec{Kind: job.KindRecommender, Seed: r.Config.Seed, Workers: perRank, Recommender: raw, Shard: job.ShardFile,
		CheckpointEvery: j.CheckpointEvery, CheckpointBest: j.CheckpointEvery == 0, CheckpointFiles: true}
	if j.From != nil {
		spec.Start, spec.StartEpoch = startFile, j.From.Epoch
	}
	export := func(ctx context.Context, dir string) error {
		if err := job.WriteShards(ctx, dir, fit, r.TestRatings, shard); err != nil {
			return j.MPI.ExportError(err)
		}
		return j.exportStart(dir)
	}
	data, err := j.MPI.Train(ctx, run, spec.WriteAs, export, func(dir string, p training.Progress) training.Epoch {
		e := recommender.Epoch{Epoch: p.Epoch, TrainRMSE: p.Metric("train_rmse"), TestRMSE: p.Metric("test_rmse"),
			TrainLoss: p.Metric("train_loss"), RecallAt10: p.Metric("recall_at_10"), NDCGAt10: p.Metric("ndcg_at_10")}
		return r.TrainingEpoch(&e, float64(p.ElapsedMS), "", func() ([]byte, error) { return rankCheckpoint(r, fit, dir, e.Epoch) })
	})
	if err != nil {
		return nil, err
	}
	model, err := recommender.Unmarshal(data)
	if err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's model: %v", Fn, err)
	}
	if model.Items != r.TrainRatings.Items {
		return nil, sqlstate.New(sqlstate.InternalError, "%s: the ranks trained a model of %d items, this server read %d",
			Fn, model.Items, r.TrainRatings.Items)
	}
	model.ItemIDs, model.UserIDs = fit.ItemIDs, fit.UserIDs // the ranks knew the users and items by index only
	return model, nil
}

// exportStart writes the model a resumed run goes on from into the job
// in dir as its start (see job.Spec.Start); nothing for a new run.
func (j *Job) exportStart(dir string) error {
	if j.From == nil {
		return nil
	}
	data, err := j.From.Model.Marshal()
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, startFile), data, 0o644)
	}
	if err != nil {
		return j.MPI.DirError(err)
	}
	return nil
}

// rankCheckpoint is rank 0's checkpoint of epoch as the version's
// artifact, as a GAT run's rank checkpoint is read: rank 0 writes the
// model alone, and this server completes it with the ratings as a local
// run's checkpoint is; nil where rank 0 wrote none.
func rankCheckpoint(r *recommender.Run, fit recommender.Ratings, dir string, epoch int) ([]byte, error) {
	data := training.RankCheckpoint(dir, epoch)
	if data == nil {
		return nil, nil
	}
	model, err := recommender.Unmarshal(data)
	if err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's checkpoint: %v", Fn, err)
	}
	model.ItemIDs, model.UserIDs = fit.ItemIDs, fit.UserIDs
	return r.Artifact(model, epoch)
}
