package job

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
)

// The files rank 0 writes in the job directory, which the server's
// launch (training.Launch) reads. An artifact is what the registry stores
// for a version: gat.Artifact's JSON, or recommender.AppendArtifact's
// encoding.
const (
	ProgressFile   = training.ProgressFile // one JSON object per epoch
	CheckpointFile = "checkpoint.artifact" // the latest checkpoint's artifact
	ArtifactFile   = training.ArtifactFile // the final artifact
)

// CheckpointFileOf is the name of epoch's checkpoint in a job that keeps
// each (Spec.CheckpointFiles).
func CheckpointFileOf(epoch int) string { return training.CheckpointFileOf(epoch) }

// Progress is one epoch, a line of ProgressFile (see training.Progress).
type Progress = training.Progress

// progress appends epochs to ProgressFile.
type progress struct{ f *os.File }

func openProgress(dir string) (*progress, error) {
	f, err := os.OpenFile(filepath.Join(dir, ProgressFile), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open progress: %w", err)
	}
	return &progress{f: f}, nil
}

// add writes p as a line, which a reader sees whole once written.
func (w *progress) add(p Progress) error {
	line, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if _, err := w.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write progress: %w", err)
	}
	return nil
}

func (w *progress) Close() error { return w.f.Close() }

// epoch writes an epoch's progress line, after the checkpoint snapshot
// makes when one is due (every checkpointEvery epochs, 0: never; and at a
// best epoch when best is set), so that a reader that sees the line finds
// the epoch's checkpoint: as CheckpointFile until a later one replaces
// it, and with files also as CheckpointFileOf(epoch), linked to the same
// data, until the reader removes it.
func (w *progress) epoch(dir string, checkpointEvery int, best, files bool, p Progress, snapshot func() ([]byte, error)) error {
	if checkpointEvery > 0 && p.Epoch%checkpointEvery == 0 || best && p.Best {
		data, err := snapshot()
		if err != nil {
			return err
		}
		if !files {
			err = writeFile(filepath.Join(dir, CheckpointFile), data)
		} else if err = writeFile(filepath.Join(dir, CheckpointFileOf(p.Epoch)), data); err == nil {
			err = linkFile(filepath.Join(dir, CheckpointFileOf(p.Epoch)), filepath.Join(dir, CheckpointFile))
		}
		if err != nil {
			return err
		}
	}
	return w.add(p)
}

// linkFile makes path name the file at from as well, replacing what path
// named atomically.
func linkFile(from, path string) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".link")
	os.Remove(tmp)
	if err := os.Link(from, tmp); err != nil {
		return fmt.Errorf("link %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("link %s: %w", path, err)
	}
	return nil
}

// recommenderEpoch is epoch for a recommender's epoch, best when its
// selection loss is the lowest so far, its metrics named as
// train_recommender's columns.
func (w *progress) recommenderEpoch(dir string, spec Spec, best bool, e recommender.Epoch, snapshot func() ([]byte, error)) error {
	return w.epoch(dir, spec.CheckpointEvery, spec.CheckpointBest, spec.CheckpointFiles, Progress{Epoch: e.Epoch, Best: best, ElapsedMS: e.Elapsed.Milliseconds(), Metrics: map[string]*float64{
		"train_rmse": metric(e.TrainRMSE), "test_rmse": metric(e.TestRMSE), "train_loss": metric(e.TrainLoss),
		"recall_at_10": metric(e.RecallAt10), "ndcg_at_10": metric(e.NDCGAt10)}}, snapshot)
}

// writeFile replaces path with data atomically: a reader sees the old
// file or the new one, never part of one.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// metric is v for Progress.Metrics: nil for a NaN, which JSON cannot hold.
func metric(v float64) *float64 {
	if v != v {
		return nil
	}
	return &v
}
