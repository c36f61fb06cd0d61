package clsrun

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// trainAcross has the ranks of j.Across train the model of run r on the
// rows it read (see classifier.Run.Across): this server prepares them as
// a local run does (classifier.PrepareSource) and exports them to the job
// directory, every rank reads them all, and the ranks train what ranks x
// workers workers train here (the curve to 1e-9). Rank 0's epochs reach
// the run, and seen, as a local run's do, its checkpoints are stored as a
// local run's; it returns rank 0's model and the training state after
// its last epoch (from where it trained none).
func (j *Job) trainAcross(ctx context.Context, run *training.Run, r *classifier.Run, seen func(classifier.Epoch)) (*classifier.Model, *classifier.State, error) {
	l := j.Across
	p, err := classifier.PrepareSource(ctx, r.Options, r.FitRows.Rows, classifier.Target{Labels: r.FitRows.Labels, Values: r.FitRows.Values}, r.IsVal)
	if err != nil {
		return nil, nil, err
	}
	spec := job.Spec{Kind: job.KindClassifier, Seed: p.Config.Seed, Workers: p.Config.Workers / l.Ranks(),
		Classifier:      &job.Classifier{Model: p.Model, Config: p.Config, From: r.Options.From},
		CheckpointEvery: j.CheckpointEvery, CheckpointBest: j.CheckpointEvery == 0, CheckpointFiles: true}
	export := func(ctx context.Context, dir string) error {
		if err := job.WriteClassifierData(dir, p); err != nil {
			return l.ExportError(err)
		}
		return nil
	}
	data, err := l.Train(ctx, run, spec.WriteAs, export, func(dir string, pr training.Progress) training.Epoch {
		e := classifier.Epoch{Epoch: pr.Epoch, TrainLoss: pr.Metric("train_loss"), ValLoss: pr.Metric("val_loss"),
			ValAccuracy: pr.Metric("val_accuracy"), ValRMSE: pr.Metric("val_rmse"), Elapsed: time.Duration(pr.ElapsedMS) * time.Millisecond}
		seen(e)
		te := r.TrainingEpoch(e)
		te.Snapshot = func() ([]byte, error) { return rankCheckpointOf(r, p.Model, dir, e.Epoch) }
		return te
	})
	if err != nil {
		return nil, nil, err
	}
	var a job.ClassifierArtifact
	if err := json.Unmarshal(data, &a); err != nil || a.Model == nil || len(a.Model.Weights) == 0 {
		return nil, nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's model: %v", r.Fn, err)
	}
	if a.Last == nil {
		a.Last = r.Options.From
	}
	return a.Model, a.Last, nil
}

// rankCheckpointOf is rank 0's checkpoint of epoch, the training state
// after it, as the version's artifact of the prepared model m with the
// state's weights; nil where rank 0 wrote none.
func rankCheckpointOf(r *classifier.Run, m *classifier.Model, dir string, epoch int) ([]byte, error) {
	data := training.RankCheckpoint(dir, epoch)
	if data == nil {
		return nil, nil
	}
	var s classifier.State
	if err := json.Unmarshal(data, &s); err != nil || s.Epoch != epoch {
		return nil, sqlstate.New(sqlstate.DataCorrupted, "%s: rank 0's checkpoint of epoch %d: %v (epoch %d)", r.Fn, epoch, err, s.Epoch)
	}
	snap := *m
	snap.Weights = s.Weights
	return r.Artifact(&snap, &s, epoch)
}
