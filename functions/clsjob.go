//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/classifier/clsrun"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/storage/prep"
)

// job is the execution of the call s describes on src, reading cols (see
// clsrun.Job); across, when not nil, runs it across MPI ranks.
func (s *clsSpec) job(c *call, src *source, cols classifier.Columns, across *training.Launch) *clsrun.Job {
	return &clsrun.Job{Fn: s.fn, Kind: s.kind, Name: s.name, Regression: s.regression, Options: s.opts,
		Target: s.target, TargetCol: s.targetCol, Arch: s.arch, ValFraction: s.valFraction, TestFraction: s.testFraction,
		MaxCategories: s.maxCategories, Deploy: s.deploy, CheckpointEvery: s.checkpoint, Source: src.text,
		Session: c.caller.ID(), Cols: cols, Across: across}
}

// reading makes j read src's rows through storage/prep, as the caller
// would, spilling to the database's spool directory and sending its
// NOTICEs to the caller.
func reading(c *call, j *clsrun.Job, src *source) *clsrun.Job {
	j.Source, j.SpoolDir, j.Notice = src.text, c.db.SpoolDir(), c.caller.Notice
	j.Rows = &prep.Labelled{Src: src.prep(), Reader: engine{c}, Regression: j.Regression, TargetArg: j.Target}
	return j
}

// startJob starts an execution of train_classifier or train_regressor
// through the lifecycle.
func startJob(c *call, s *clsSpec, j *clsrun.Job) func(ctx context.Context) (*run, error) {
	return func(ctx context.Context) (*run, error) {
		return trainRun(ctx, trainingJob(c, s.fn, s.from.Resume(s.allowDataChange)), j.ReadRun)
	}
}

// launchAcross prepares a train_classifier or train_regressor run across
// ranks (see launchOf): workers := W is then each rank's.
func (s *clsSpec) launchAcross(c *call, ranks int) (*training.Launch, error) {
	return launchOf(c, s.fn, ranks, s.opts.Workers, func(workers int) error {
		s.opts.Workers = workers
		return s.opts.Validate()
	})
}
