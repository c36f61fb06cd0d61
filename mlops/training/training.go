// Package training is Mallard's one training lifecycle, which every model
// plugs into: Start reads the model's data with memory reserved from the
// server's budget, fingerprints it, checks a resumed run against it and
// registers the run; the run's epochs then stream a row and a NOTICE
// each, are recorded in the registry, checkpointed when due and checked
// for divergence; and the run ends with its result stored and deployed
// by policy, or failed or canceled, exactly once.
//
// The package knows nothing of SQL or DuckDB: it reaches the registry,
// the memory budget and the caller's NOTICEs through the interfaces it
// declares here (Registry, Budget, Notifier), and the model through
// Model. docs/training.md describes the guarantees and how a model plugs
// in.
package training

import (
	"context"
	"math"

	"github.com/mallard/mallard/mlops"
)

// Registry records training runs (the engine's mlops tables implement
// it). Begin records spec as a run, waits for a training slot and gives
// the run its model version; it fails, leaving nothing registered but a
// run that says so, if it cannot.
type Registry interface {
	Begin(ctx context.Context, spec Spec) (Record, error)
}

// Record is one registered run. Epoch commits an epoch's losses and
// reports whether its selection loss is the lowest so far; Checkpoint
// stores the model after an epoch as the version's artifact; Finish and
// Fail end the run, once, each returning a message for the caller or "".
// Context ends when the run is canceled (mlops.cancel) or the context
// Begin was given ends.
type Record interface {
	Ref() mlops.Ref
	Context() context.Context
	Epoch(l Losses) (best bool, err error)
	Checkpoint(epoch int, data []byte) error
	Finish(res *Result) string
	Fail(cause error) string
}

// Budget is the server's memory budget: Reserve takes n bytes for what
// (a phrase naming the data) or fails with 53200; release gives them back
// and may be called more than once.
type Budget interface {
	Reserve(ctx context.Context, n int64, what string) (release func(), err error)
}

// Notifier sends a NOTICE to the session that started the run.
type Notifier interface {
	Notice(text string)
}

// Spec is what a run records about itself before it starts.
type Spec struct {
	Kind, Name  string
	Params      any // the hyperparameters, as JSON
	Source      string
	Fingerprint string // set by Start, from Model.Fingerprint
	Rows        int64
	Entities    int64
	Scaler      string
	Epochs      int
	// CheckpointEvery, when above 0, checkpoints every so many epochs; at
	// 0 the run checkpoints at every new lowest selection loss.
	CheckpointEvery int
	ResumedFrom     string // set by Start from Job.Resume
	Deploy          string // auto, always or never
	Session         uint64
}

// Losses are an epoch's measures as the registry records them.
type Losses struct {
	Epoch       int
	Train, Test float64
	// Selection picks the best epoch: the validation loss where the model
	// has one, else the test loss.
	Selection float64
	ElapsedMS float64
	// Extra are the epoch's other measures, as JSON; nil for none.
	Extra any
}

// Result is a successful run's result, as the registry stores it.
type Result struct {
	Artifact []byte
	Epoch    int      // the last epoch trained
	Metrics  any      // as JSON: the model's and the baselines' metrics
	TestLoss float64  // the metric deployment compares without ValLoss: lower is better
	ValLoss  *float64 // the validation loss deployment compares, where there is one
	Report   any      // as JSON: what the dashboard shows of the version
}

// Columns are the names of the row each epoch streams for a model whose
// metric columns are metrics: epoch, the metrics, best, elapsed_ms.
// Epoch is a BIGINT, best a BOOLEAN, the others DOUBLE.
func Columns(metrics ...string) []string {
	return append(append([]string{"epoch"}, metrics...), "best", "elapsed_ms")
}

// Value is v as an epoch's metric column holds it (see Epoch.Metrics):
// nil, which the row writes as NULL, when v is NaN.
func Value(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}

// Finite is v as a model's recorded metrics hold it (JSON null where
// there was nothing to measure): nil when v is not a finite number.
func Finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
