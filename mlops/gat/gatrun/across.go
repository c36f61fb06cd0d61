package gatrun

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// trainAcross has the ranks of r.Across train on the matrix r read
// (exported to the job directory), from start, hands rank 0's epochs and
// checkpoints to the run as a local run's, and returns rank 0's model and
// the last epoch trained.
func (r *run) trainAcross(ctx context.Context, run *training.Run, start gat.Start) (*gat.Model, int, error) {
	l, last := r.Across, start.Epoch
	hyper := r.Config
	hyper.Workers /= l.Ranks()
	raw, err := json.Marshal(hyper)
	if err != nil {
		return nil, 0, err
	}
	spec := job.Spec{Kind: job.KindGAT, Time: []string{"t"}, Seed: r.Config.Seed, Workers: hyper.Workers, GAT: raw,
		CheckpointEvery: r.CheckpointEvery, CheckpointBest: r.CheckpointEvery == 0, CheckpointFiles: true,
		Shard: job.ShardFile, Start: job.GATStartFile}
	start, pre, err := gat.Prepare(r.Config, r.m, start) // what reads every row, which the ranks do not
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", Name, err)
	}
	export := func(ctx context.Context, dir string) error {
		if err := job.WriteGATShards(ctx, dir, r.Config, r.m, start, pre, l.Ranks()); err != nil {
			return l.ExportError(err)
		}
		return nil
	}
	data, err := l.Train(ctx, run, spec.WriteAs, export, func(dir string, p training.Progress) training.Epoch {
		e := gat.Epoch{Epoch: p.Epoch, TrainMSE: p.Metric("train_mse"), TestMSE: p.Metric("test_mse"), ValMSE: p.Metric("val_mse")}
		last = e.Epoch
		return r.epoch(e, float64(p.ElapsedMS), "", func() ([]byte, error) { return r.rankCheckpoint(dir, e.Epoch) })
	})
	if err != nil {
		return nil, 0, err
	}
	a, err := gat.UnmarshalStart(data)
	if err != nil {
		return nil, 0, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's artifact: %v", Name, err)
	}
	if a.Model.Entities != r.m.N {
		return nil, 0, sqlstate.New(sqlstate.InternalError, "%s: the ranks trained on %d entities, this server read %d", Name, a.Model.Entities, r.m.N)
	}
	return a.Model, last, nil
}

// rankCheckpoint is rank 0's checkpoint of epoch as the version's
// artifact: rank 0 writes one by the lifecycle's rule (see
// mlops.CheckpointDue) before the epoch's progress line
// (job.Spec.CheckpointFiles); nil where it wrote none.
func (r *run) rankCheckpoint(dir string, epoch int) ([]byte, error) {
	data := training.RankCheckpoint(dir, epoch)
	if data == nil {
		return nil, nil
	}
	a, err := gat.UnmarshalStart(data)
	if err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's checkpoint: %v", Name, err)
	}
	if a.Epoch != epoch {
		return nil, nil
	}
	return r.artifact(r.m, a.Model, epoch, false, nil)
}
