package training

import (
	"context"
	"fmt"

	"github.com/mallard/mallard/sqlstate"
)

// The files rank 0 of a job across ranks writes in the job directory,
// which Launch.Run reads (mlops/job writes them). An artifact is what the
// registry stores for a version.
const (
	ProgressFile = "progress.jsonl" // one JSON object per epoch
	ArtifactFile = "model.artifact" // the final artifact
)

// CheckpointFileOf is the name of epoch's checkpoint in a job that keeps
// each.
func CheckpointFileOf(epoch int) string { return fmt.Sprintf("checkpoint-%d.artifact", epoch) }

// Progress is one epoch, a line of ProgressFile. Metrics are named as the
// SQL training functions' columns are (train_mse, ...); a NaN is null.
type Progress struct {
	Epoch     int                 `json:"epoch"`
	Metrics   map[string]*float64 `json:"metrics"`
	Best      bool                `json:"best,omitempty"`
	ElapsedMS int64               `json:"elapsed_ms"`
}

// Ranks is the number of ranks the launch starts.
func (l *Launch) Ranks() int { return l.ranks }

// JobDir is the directory the launch makes its job directories in.
func (l *Launch) JobDir() string { return l.jobDir }

// Train runs a job across the ranks for run (see Run): spec writes the
// job's spec and export its data, and epoch makes of each progress line
// the epoch run.Epoch takes, its Snapshot reading rank 0's checkpoint
// from the job directory (RankCheckpoint). The epoch's NOTICE names the
// ranks; a checkpoint file is removed once its epoch is recorded. It
// returns rank 0's artifact.
func (l *Launch) Train(ctx context.Context, run *Run, spec func(dir, version string) error, export func(ctx context.Context, dir string) error,
	epoch func(dir string, p Progress) Epoch) ([]byte, error) {
	return l.Run(ctx, spec, export, func(dir string, p Progress) error {
		defer RemoveRankCheckpoint(dir, p.Epoch)
		e := epoch(dir, p)
		e.Notice += fmt.Sprintf("; %d ranks", l.ranks)
		return run.Epoch(e)
	})
}

// ExportError is the error of err, met exporting the source to the job
// directory.
func (l *Launch) ExportError(err error) error {
	return sqlstate.New(sqlstate.IOError, "%s: export the source to the job directory under --job-dir %s: %v", l.fn, l.jobDir, err)
}
