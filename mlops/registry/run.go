//go:build duckdb_arrow

package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/registrystore"
)

// Spec is what a training run records about itself before it starts.
type Spec struct {
	Kind, Name  string
	Params      any // the hyperparameters, as JSON
	Source      string
	Fingerprint string
	Rows        int64
	Entities    int64
	Scaler      string
	Epochs      int
	// CheckpointEvery, when above 0, has Record store a checkpoint every
	// so many epochs; at 0 it stores one at every new lowest loss.
	CheckpointEvery int
	ResumedFrom     string // the version the run continues, if any
	Deploy          string // auto, always or never
	Session         uint64
}

// Training is one training run, from queued to finished: Begin starts
// it, Epoch and Checkpoint record its progress, and Finish or Fail end
// it, once.
type Training struct {
	reg     *Registry
	id      int64
	version int
	spec    Spec
	ctx     context.Context // ends when the caller's does or Cancel names the run
	untrack func()
	release func()

	bestEpoch     int
	bestTest      float64
	bestSelection float64
}

// Begin records a run as queued, waits for a training slot, then gives
// the run the next version of its model and records both as training.
// The run is cancelable (see Cancel) from the moment it is recorded; it
// fails with the cause if it is canceled while it waits.
func (r *Registry) Begin(ctx context.Context, spec Spec) (*Training, error) {
	params, err := json.Marshal(spec.Params)
	if err != nil {
		return nil, err
	}
	run := &Training{reg: r, spec: spec, bestTest: math.Inf(1), bestSelection: math.Inf(1)}
	err = r.tx(ctx, func(tx Tx) error {
		var err error
		run.id, err = tx.QueueRun(ctx, registrystore.NewRun{Model: spec.Name, Kind: spec.Kind, Epochs: spec.Epochs,
			Session: spec.Session, ResumedFrom: spec.ResumedFrom})
		if err == nil { // cancelable before any session can see it
			run.ctx, run.untrack = r.runs.Track(ctx, run.id)
		}
		return err
	})
	if err == nil {
		r.runs.Log().Info("training run queued", "run_id", run.id, "model", spec.Name, "kind", spec.Kind, "session", spec.Session)
	}
	if err != nil {
		if run.untrack != nil {
			run.untrack()
		}
		return nil, fmt.Errorf("record training run: %w", err)
	}
	if run.release, err = r.runs.Acquire(run.ctx); err != nil {
		run.end(err, nil)
		return nil, err
	}
	err = r.tx(run.ctx, func(tx Tx) error {
		var err error
		if run.version, err = tx.NextVersion(ctx, spec.Name); err != nil {
			return err
		}
		return tx.StartVersion(ctx, registrystore.NewVersion{Ref: run.Ref(), Kind: spec.Kind, RunID: run.id,
			Hyperparameters: string(params), Source: spec.Source, Fingerprint: spec.Fingerprint, Rows: spec.Rows,
			Entities: spec.Entities, Scaler: spec.Scaler, MallardVersion: r.version})
	})
	if err != nil {
		run.end(err, nil)
		return nil, fmt.Errorf("record model version: %w", err)
	}
	r.runs.Log().Info("training run started", "run_id", run.id, "model", spec.Name, "version", run.version)
	return run, nil
}

// Ref is the run's model version.
func (t *Training) Ref() mlops.Ref { return mlops.Ref{Name: t.spec.Name, Version: t.version} }

// ID is the run's id in mlops.training_runs.
func (t *Training) ID() int64 { return t.id }

// Context ends when the context Begin was given does, or when Cancel
// names the run; training should stop then.
func (t *Training) Context() context.Context { return t.ctx }

// Epoch records an epoch's losses, committed at once so that other
// sessions see them while training goes on, and reports whether its
// selection loss (the validation loss where the model has one, else the
// test loss) is the lowest so far. The run's best_test_loss is the test
// loss of that epoch.
func (t *Training) Epoch(epoch int, trainLoss, testLoss, selection, elapsedMS float64, extra any) (bool, error) {
	best := selection < t.bestSelection
	if best {
		t.bestEpoch, t.bestTest, t.bestSelection = epoch, testLoss, selection
	}
	m := Metric{Epoch: epoch, TrainLoss: trainLoss, TestLoss: testLoss, ElapsedMS: elapsedMS}
	if extra != nil {
		b, err := json.Marshal(extra)
		if err != nil {
			return false, err
		}
		m.Extra = ptr(string(b), true)
	}
	ctx := context.WithoutCancel(t.ctx)
	return best, t.reg.tx(ctx, func(tx Tx) error { return tx.AddEpoch(ctx, t.id, m, t.bestEpoch, t.bestTest) })
}

// Checkpoint stores the model after epoch as the version's artifact.
func (t *Training) Checkpoint(epoch int, data []byte) error {
	ctx := context.WithoutCancel(t.ctx)
	sum, err := t.reg.writeParts(ctx, t.Ref(), epoch, false, data)
	if err != nil {
		return err
	}
	return t.reg.tx(ctx, func(tx Tx) error { return tx.PointTo(ctx, t.Ref(), epoch, len(data), sum) })
}

// Losses are an epoch's measures as Record records them.
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

// Record records an epoch as Epoch does and stores a checkpoint, as
// Checkpoint does, when one is due: at every new lowest selection loss,
// or every Spec.CheckpointEvery epochs when that is above 0; never at
// epoch Spec.Epochs, the last, whose model Finish stores at once.
// snapshot encodes the model after the epoch; Record calls it only when
// a checkpoint is due. It reports whether the epoch is the best so far.
func (t *Training) Record(l Losses, snapshot func() ([]byte, error)) (best bool, err error) {
	if best, err = t.Epoch(l.Epoch, l.Train, l.Test, l.Selection, l.ElapsedMS, l.Extra); err != nil {
		return false, err
	}
	if !mlops.CheckpointDue(t.spec.CheckpointEvery, l.Epoch, t.spec.Epochs, best) {
		return best, nil
	}
	data, err := snapshot()
	if err != nil {
		return false, err
	}
	return best, t.Checkpoint(l.Epoch, data)
}

// artifactPart is the most bytes of an artifact one row of
// mlops.artifacts holds.
const artifactPart = 8 << 20

// writeParts stores data as an artifact of ref, in parts of artifactPart
// bytes, each committed on its own, and returns its checksum. DuckDB
// holds a transaction's writes, and on commit copies of them, in memory:
// committing a 333 MB artifact at once raised the server's resident set by
// more than a gigabyte. The parts stay unused until pointTo makes the
// model row point at their checksum; parts no row points at (a crash in
// between) are removed at startup (see recover).
func (r *Registry) writeParts(ctx context.Context, ref mlops.Ref, epoch int, final bool, data []byte) (string, error) {
	sum := mlops.Checksum(data)
	for part := 0; part == 0 || part*artifactPart < len(data); part++ {
		chunk := data[part*artifactPart : min((part+1)*artifactPart, len(data))]
		err := r.tx(ctx, func(tx Tx) error {
			return tx.AddArtifactPart(ctx, registrystore.ArtifactPart{Ref: ref, Epoch: epoch, Final: final, Size: len(data),
				Checksum: sum, Data: chunk, Part: part})
		})
		if err != nil {
			return "", fmt.Errorf("store artifact of %s: %w", ref, err)
		}
	}
	return sum, nil
}

// Result is a successful run's result.
type Result struct {
	Artifact []byte
	Epoch    int      // the last epoch trained
	Metrics  any      // as JSON: the model's and the baselines' metrics
	TestLoss float64  // the metric deployment compares without ValLoss: lower is better
	ValLoss  *float64 // the validation loss deployment compares, where there is one
	Report   any      // as JSON: what the dashboard shows of the version
}

// Finish records the run as succeeded with res: the version is ready,
// with res's artifact and report, and deploys itself as its Spec's
// Deploy says. If res cannot be stored, the run fails instead. It returns
// a message for the caller, or "".
func (t *Training) Finish(res *Result) string { return t.end(nil, res) }

// Fail records the run as ended by cause: canceled when the run's context
// ended or cause is a cancellation, else failed. A failed version keeps
// no artifact; a canceled one keeps its last checkpoint. It returns a
// message for the caller, or "".
func (t *Training) Fail(cause error) string { return t.end(cause, nil) }

// end records how the run ended: with res when cause is nil, else with
// cause. It releases the run's training slot.
func (t *Training) end(cause error, res *Result) string {
	defer func() {
		if t.release != nil {
			t.release()
		}
		t.untrack()
	}()
	ctx := context.WithoutCancel(t.ctx)
	var note, sum string
	if cause == nil {
		var err error
		if sum, err = t.reg.writeParts(ctx, t.Ref(), res.Epoch, true, res.Artifact); err != nil {
			cause = err
		}
	}
	werr := t.reg.tx(ctx, func(tx Tx) error {
		if cause == nil {
			var err error
			note, err = t.succeed(ctx, tx, res, sum)
			return err
		}
		status := StatusFailed
		if canceled(t.ctx, cause) {
			status = StatusCanceled
		}
		if t.version > 0 {
			if status == StatusFailed {
				if err := tx.DropWeights(ctx, t.Ref()); err != nil {
					return err
				}
			}
			if err := tx.SetVersionStatus(ctx, t.Ref(), status); err != nil {
				return err
			}
		}
		return tx.EndRun(ctx, t.id, status, errorText(cause))
	})
	t.logEnd(cause, werr)
	if werr != nil {
		return "recording the end of training run failed: " + werr.Error()
	}
	return note
}

// succeed records in tx that the run succeeded with res, whose artifact
// is stored under checksum sum, and deploys the version as the run's
// Spec says. It returns a message for the caller.
func (t *Training) succeed(ctx context.Context, tx Tx, res *Result, sum string) (string, error) {
	metrics, err := json.Marshal(res.Metrics)
	if err != nil {
		return "", err
	}
	if err := tx.PointTo(ctx, t.Ref(), res.Epoch, len(res.Artifact), sum); err != nil {
		return "", err
	}
	if err := writeReport(ctx, tx, t.Ref(), res.Report); err != nil {
		return "", err
	}
	if err := tx.MarkReady(ctx, t.Ref(), string(metrics), res.TestLoss, res.ValLoss); err != nil {
		return "", err
	}
	if err := tx.SucceedRun(ctx, t.id); err != nil {
		return "", err
	}
	return t.reg.autoDeploy(ctx, tx, t.Ref(), res.TestLoss, res.ValLoss, t.spec.Deploy)
}

// writeReport stores ref's report, replacing any it had. A report that is
// JSON already is stored as it is: json.Marshal would validate and copy
// it twice, through a buffer grown by doubling, and a GAT report of a
// catalogue is tens of MB.
func writeReport(ctx context.Context, tx Tx, ref mlops.Ref, report any) error {
	if report == nil {
		return nil
	}
	data, ok := report.(json.RawMessage)
	if !ok || !json.Valid(data) {
		var err error
		if data, err = json.Marshal(report); err != nil {
			return fmt.Errorf("encode report of %s: %w", ref, err)
		}
	}
	return tx.SetReport(ctx, ref, string(data))
}

// canceled reports whether a run ended because it was stopped: by
// Cancel, a cancel request, a timeout, or the end of its statement.
func canceled(ctx context.Context, cause error) bool {
	return ctx.Err() != nil || errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) ||
		sqlstate.CodeOf(cause) == sqlstate.QueryCanceled
}

func errorText(err error) string {
	var e *sqlstate.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// logEnd records how the run ended, as end recorded it in the database.
func (t *Training) logEnd(cause, recordErr error) {
	status, level := "succeeded", slog.LevelInfo
	switch {
	case cause != nil && canceled(t.ctx, cause):
		status = StatusCanceled
	case cause != nil:
		status, level = StatusFailed, slog.LevelWarn
	}
	attrs := []any{"run_id", t.id, "model", t.spec.Name, "version", t.version, "status", status}
	if cause != nil {
		attrs = append(attrs, "error", errorText(cause))
	}
	if recordErr != nil {
		attrs, level = append(attrs, "record_error", recordErr.Error()), slog.LevelError
	}
	t.reg.runs.Log().Log(context.Background(), level, "training run ended", attrs...)
}
