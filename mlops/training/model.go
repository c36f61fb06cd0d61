package training

import (
	"context"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/sqlstate"
)

// Model is a model's side of one run: its data, read already, and its
// math. A model implements these three methods, and any of the optional
// Preparer, Diverger and Storer; the lifecycle does everything else.
type Model interface {
	// Spec describes the run for the registry; Start fills in its
	// Fingerprint and ResumedFrom.
	Spec() Spec
	// Fingerprint identifies the data the model trains on; a resumed run
	// on data of another fingerprint is refused unless allowed. It runs
	// at the same time as Preparer.Prepare, and must only read.
	Fingerprint() string
	// Train trains, handing each epoch to run.Epoch and stopping with its
	// error, and returns what the run stores. It returns when ctx ends,
	// with ctx's cause, at the latest at its next batch.
	Train(ctx context.Context, run *Run) (*Result, error)
}

// Preparer is a model with work to do on its data before the run is
// registered (choosing options from the data, checking a resumed run's
// shape): an error from Prepare refuses the run before it is recorded.
type Preparer interface {
	Prepare(ctx context.Context) error
}

// Diverger explains a run whose training loss stopped being finite: it
// returns err with a detail and a hint added (lower the learning rate,
// rescale the input, ...).
type Diverger interface {
	Diverged(err *sqlstate.Error) *sqlstate.Error
}

// Storer is told, after a successful run's result is stored and deployed,
// the version it was stored as; a NOTICE it sends then is the run's last.
type Storer interface {
	Stored(ref mlops.Ref)
}

// Failer is told, after a run that failed or was canceled has been
// recorded (a canceled one with the checkpoint it keeps), so that it can
// remove what it wrote outside the registry for the run; ctx is not
// canceled. A message it returns reaches the caller as a NOTICE.
type Failer interface {
	Failed(ctx context.Context) string
}

// Epoch is one epoch as a model hands it to Run.Epoch.
type Epoch struct {
	Losses
	// Measure names Losses.Train in the divergence error: train_mse.
	Measure string
	// Metrics are the values of the model's metric columns in the epoch's
	// row (see Columns): float64, or nil for NULL.
	Metrics []any
	// Notice is the epoch's NOTICE after "fn ref: epoch N ".
	Notice string
	// Snapshot encodes the model after the epoch as a checkpoint; the run
	// calls it only when a checkpoint is due (see mlops.CheckpointDue). A
	// nil Snapshot, or nil data, stores none.
	Snapshot func() ([]byte, error)
}

// Resume is the version a resumed run continues, and what the registry
// recorded of the data it was trained on.
type Resume struct {
	From        mlops.Ref
	Fingerprint string
	// AllowDataChange resumes on data of another fingerprint.
	AllowDataChange bool
	// Covers, if set, is a sentence added to the refusal's detail saying
	// what the fingerprint covers.
	Covers string
}

// check refuses, with 22023, data of another fingerprint than the
// resumed version's unless that is allowed.
func (r *Resume) check(fn, fp string) error {
	if r == nil || fp == r.Fingerprint || r.AllowDataChange {
		return nil
	}
	detail := "Its fingerprint was %s; the source's is %s."
	if r.Covers != "" {
		detail += " " + r.Covers
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: resume: the data differs from the data %s was trained on", fn, r.From).
		WithDetail(detail, r.Fingerprint, fp).
		WithHint("allow_data_change := true resumes on the new data.")
}
