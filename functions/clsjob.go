//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops/classifier/clsrun"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/storage/prep"
)

// reading makes j read src's rows through storage/prep, as the caller
// would, spilling to the database's spool directory and sending its
// NOTICEs to the caller.
func reading(c *call, j *clsrun.Job, src *source) *clsrun.Job {
	j.Source, j.SpoolDir, j.Notice = src.text, c.db.SpoolDir(), c.caller.Notice
	j.Rows = &prep.Labelled{Src: src.prep(), Reader: engine{c}, Regression: j.Regression, TargetArg: j.Target}
	return j
}

// startJob starts an execution of train_classifier or train_regressor
// (fn) through the lifecycle, resuming a version when resume is not nil.
func startJob(c *call, fn string, resume *training.Resume, j *clsrun.Job) func(ctx context.Context) (*run, error) {
	return func(ctx context.Context) (*run, error) { return trainRun(ctx, trainingJob(c, fn, resume), j.ReadRun) }
}

// launchAcross prepares j's run across ranks (see launchOf): workers :=
// W is then each rank's.
func launchAcross(c *call, j *clsrun.Job, ranks int) (*training.Launch, error) {
	return launchOf(c, j.Fn, ranks, j.Options.Workers, func(workers int) error {
		j.Options.Workers = workers
		return j.Options.Validate()
	})
}
