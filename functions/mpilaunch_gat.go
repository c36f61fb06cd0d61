//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// gatLaunchAcross prepares a train_gat run across ranks when ranks := N is
// above 1, and returns its launch (nil for a run in this process):
// workers := W is then each rank's, and the run trains what N x W workers
// train in one process.
func (j *gatJob) launchAcross(a args) (*mpiLaunch, error) {
	ranks := int(a.int("ranks"))
	if ranks <= 1 {
		return nil, nil
	}
	l, err := j.c.mpiLaunchOf(trainGATName, ranks)
	if err != nil {
		return nil, err
	}
	j.cfg.Workers = ranks * int(a.int("workers")) // a resumed run's too: workers is each rank's, not the checkpoint's
	if err := j.cfg.Validate(); err != nil {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: ranks := %d x workers := %d: %v", trainGATName, ranks, j.cfg.Workers/ranks, err)
	}
	return l, nil
}

// startAcross is start for a run across the ranks of l: it reads the
// source and records the run as start does, then has the ranks train on
// the matrix it read (exported to the job directory), from the checkpoint
// resume names if any, records rank 0's epochs and checkpoints, sends the
// epochs as NOTICEs and rows as a local run does, and scores and stores
// rank 0's model as a local run's.
func (j *gatJob) startAcross(l *mpiLaunch) func(ctx context.Context) (*run, error) {
	return func(ctx context.Context) (r *run, err error) {
		m, release, err := j.read(ctx)
		if err != nil {
			return nil, err
		}
		defer func() {
			if r == nil {
				release()
			}
		}()
		j.noticeNeighbors(m)
		if err := j.resolveSeason(m); err != nil {
			return nil, err
		}
		if err := j.resolveHorizon(m, true); err != nil {
			return nil, err
		}
		j.lastTimes = lastTwo(j.timeRows)
		fp := dataFingerprint(j.w.entityNames(), m)
		if j.from != nil {
			if err := j.checkResume(fp); err != nil {
				return nil, err
			}
		}
		spec := registry.Spec{Kind: "gat", Name: j.name, Params: j.cfg, Source: j.w.src.text, Fingerprint: fp,
			Rows: int64(m.T), Entities: int64(m.N), Scaler: j.scaler, Epochs: j.cfg.Epochs, CheckpointEvery: j.checkpointEvery,
			Deploy: j.deploy, Session: j.c.caller.ID()}
		if j.from != nil {
			spec.ResumedFrom = j.fromRef.String()
		}
		tr, err := j.c.reg.Begin(ctx, spec)
		if err != nil {
			return nil, err
		}
		return stream(j.c, trainGATName, tr, func(ctx context.Context, emit func(row ...any) error) (*registry.Result, error) {
			defer release()
			return j.trainAcross(ctx, l, tr, m, emit)
		}), nil
	}
}

func (j *gatJob) trainAcross(ctx context.Context, l *mpiLaunch, tr *registry.Training, m series.Matrix,
	emit func(row ...any) error) (*registry.Result, error) {
	hyper := j.cfg
	hyper.Workers /= l.ranks
	raw, err := json.Marshal(hyper)
	if err != nil {
		return nil, err
	}
	spec := job.Spec{Kind: job.KindGAT, Time: []string{"t"}, Seed: j.cfg.Seed, Workers: hyper.Workers, GAT: raw,
		CheckpointEvery: j.checkpointEvery, CheckpointBest: j.checkpointEvery == 0, CheckpointFiles: true,
		Shard: job.ShardFile, Start: job.GATStartFile}
	last, start := 0, gat.Start{}
	if j.from != nil {
		last, start = j.from.Epoch, gat.Start{Model: j.from.Model, Epoch: j.from.Epoch}
	}
	start, pre, err := gat.Prepare(j.cfg, m, start) // what reads every row, which the ranks do not
	if err != nil {
		return nil, fmt.Errorf("%s: %w", trainGATName, err)
	}
	export := func(ctx context.Context, dir string) error {
		if err := job.WriteGATShards(ctx, dir, j.cfg, m, start, pre, l.ranks); err != nil {
			return sqlstate.New(sqlstate.IOError, "%s: export the source to the job directory under --job-dir %s: %v", trainGATName, l.jobDir, err)
		}
		return nil
	}
	data, err := l.run(ctx, spec, export, func(dir string, p job.Progress) error {
		e := gat.Epoch{Epoch: p.Epoch, TrainMSE: metricOf(p, "train_mse"), TestMSE: metricOf(p, "test_mse"), ValMSE: metricOf(p, "val_mse"),
			Elapsed: time.Duration(p.ElapsedMS) * time.Millisecond}
		last = e.Epoch
		if err := diverged(trainGATName, "train_mse", e.TrainMSE, e.Epoch); err != nil {
			return err.WithHint("Lower lr (it is %g), or use optimizer := 'adam'.", j.cfg.LR)
		}
		selection, extra := e.TestMSE, any(nil)
		var val any
		note := fmt.Sprintf("train_gat %s: epoch %d train_mse %.6g test_mse %.6g", tr.Ref(), e.Epoch, e.TrainMSE, e.TestMSE)
		if !math.IsNaN(e.ValMSE) {
			selection, extra, val = e.ValMSE, map[string]float64{"val_mse": e.ValMSE}, e.ValMSE
			note += fmt.Sprintf(" val_mse %.6g", e.ValMSE)
		}
		best, err := tr.Epoch(e.Epoch, e.TrainMSE, e.TestMSE, selection, float64(p.ElapsedMS), extra)
		if err != nil {
			return err
		}
		if err := j.checkpointAcross(tr, m, dir, e.Epoch, best); err != nil {
			return err
		}
		j.c.caller.Notice(fmt.Sprintf("%s; %d ranks", note, l.ranks))
		return emit(int64(e.Epoch), e.TrainMSE, e.TestMSE, val, best, float64(p.ElapsedMS))
	})
	if err != nil {
		return nil, err
	}
	a, err := gat.UnmarshalStart(data)
	if err != nil {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's artifact: %v", trainGATName, err)
	}
	if a.Model.Entities != m.N {
		return nil, sqlstate.New(sqlstate.InternalError, "%s: the ranks trained on %d entities, this server read %d", trainGATName, a.Model.Entities, m.N)
	}
	model := a.Model
	if an := model.Anchor; an != nil {
		j.c.caller.Notice(anchorNotice(tr.Ref(), an, j.cfg.Highway))
	}
	if j.cfg.ValidationFraction > 0 {
		j.c.caller.Notice(fmt.Sprintf("train_gat %s: keeps the weights of epoch %d, the lowest validation MSE (epoch %d is the network training started from)",
			tr.Ref(), model.Kept, 0))
	}
	return j.result(m, model, last)
}

// checkpointAcross stores rank 0's checkpoint of epoch as the version's,
// when the registry's rule (see registry.Training.Record) makes one due:
// rank 0 writes it, by the same rule, as its own file before the epoch's
// progress line (job.Spec.CheckpointFiles), which is removed once read.
func (j *gatJob) checkpointAcross(tr *registry.Training, m series.Matrix, dir string, epoch int, best bool) error {
	data := rankCheckpoint(dir, epoch, j.checkpointEvery, j.cfg.Epochs, best)
	if data == nil {
		return nil
	}
	a, err := gat.UnmarshalStart(data)
	if err != nil {
		return sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's checkpoint: %v", trainGATName, err)
	}
	if a.Epoch != epoch {
		return nil
	}
	data, err = j.artifact(m, a.Model, epoch, false, nil)
	if err != nil {
		return err
	}
	return tr.Checkpoint(epoch, data)
}
