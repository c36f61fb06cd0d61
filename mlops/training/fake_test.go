package training_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// fakeRegistry records runs in memory, with the registry's rules for how
// a run ends: finished with its result, or failed or canceled (its
// context ended, or the cause is a cancellation) with no artifact.
type fakeRegistry struct {
	mu   sync.Mutex
	runs []*fakeRecord
}

func (f *fakeRegistry) Begin(ctx context.Context, spec training.Spec) (training.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	r := &fakeRecord{spec: spec, ctx: ctx, cancel: cancel, status: "training", version: len(f.runs) + 1, bestLoss: math.Inf(1)}
	f.runs = append(f.runs, r)
	return r, nil
}

// only is the one run begun; nil if none was.
func (f *fakeRegistry) only() *fakeRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.runs) != 1 {
		return nil
	}
	return f.runs[0]
}

type fakeRecord struct {
	spec    training.Spec
	ctx     context.Context
	cancel  context.CancelCauseFunc
	version int

	mu          sync.Mutex
	status      string // training, succeeded, failed, canceled
	epochs      []int
	checkpoints []int
	artifact    []byte // the version's: the last checkpoint, or the result
	cause       error
	ends        int
	bestLoss    float64
}

func (r *fakeRecord) Ref() mlops.Ref           { return mlops.Ref{Name: r.spec.Name, Version: r.version} }
func (r *fakeRecord) Context() context.Context { return r.ctx }

func (r *fakeRecord) Epoch(l training.Losses) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.epochs = append(r.epochs, l.Epoch)
	best := l.Selection < r.bestLoss
	if best {
		r.bestLoss = l.Selection
	}
	return best, nil
}

func (r *fakeRecord) Checkpoint(epoch int, data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checkpoints, r.artifact = append(r.checkpoints, epoch), data
	return nil
}

func (r *fakeRecord) Finish(res *training.Result) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.artifact, r.ends = "succeeded", res.Artifact, r.ends+1
	return "deployed"
}

func (r *fakeRecord) Fail(cause error) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.cause, r.ends = "failed", cause, r.ends+1
	if r.ctx.Err() != nil || sqlstate.CodeOf(cause) == sqlstate.QueryCanceled {
		r.status = "canceled"
	} else {
		r.artifact = nil // a failed version keeps no artifact
	}
	return ""
}

// state is what the run's record says now.
func (r *fakeRecord) state() (status string, epochs, checkpoints []int, artifact []byte, ends int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, append([]int(nil), r.epochs...), append([]int(nil), r.checkpoints...), r.artifact, r.ends
}

// fakeBudget counts what is reserved.
type fakeBudget struct {
	mu       sync.Mutex
	reserved int64
}

func (b *fakeBudget) Reserve(_ context.Context, n int64, _ string) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved += n
	return sync.OnceFunc(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.reserved -= n
	}), nil
}

func (b *fakeBudget) held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reserved
}

// notices collects NOTICEs.
type notices struct {
	mu   sync.Mutex
	sent []string
}

func (n *notices) Notice(text string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent = append(n.sent, text)
}

func (n *notices) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.sent...)
}

// fakeModel trains one epoch per loss: its training, test and selection
// loss. At epoch failAt it fails; at epoch blockAt it waits for its
// context to end, having closed reached.
type fakeModel struct {
	losses  []float64
	fp      string
	failAt  int
	blockAt int
	reached chan struct{}
	prepErr error
	// onFailed, if set, is what Failed does; failed counts its calls.
	onFailed func() string
	failed   int
}

func (m *fakeModel) Failed(context.Context) string {
	m.failed++
	if m.onFailed == nil {
		return ""
	}
	return m.onFailed()
}

var errEpoch = errors.New("the epoch failed")

func (m *fakeModel) Spec() training.Spec {
	return training.Spec{Kind: "toy", Name: "m", Epochs: len(m.losses)}
}

func (m *fakeModel) Fingerprint() string { return m.fp }

func (m *fakeModel) Prepare(context.Context) error { return m.prepErr }

func (m *fakeModel) Diverged(err *sqlstate.Error) *sqlstate.Error { return err.WithHint("Lower lr.") }

func (m *fakeModel) Train(ctx context.Context, run *training.Run) (*training.Result, error) {
	last := 0
	for i, l := range m.losses {
		epoch := i + 1
		switch epoch {
		case m.failAt:
			return nil, errEpoch
		case m.blockAt:
			close(m.reached)
			<-ctx.Done()
			return nil, context.Cause(ctx)
		}
		err := run.Epoch(training.Epoch{Losses: training.Losses{Epoch: epoch, Train: l, Test: l, Selection: l},
			Measure: "train_loss", Metrics: []any{l}, Notice: fmt.Sprintf("train_loss %g", l),
			Snapshot: func() ([]byte, error) { return []byte{byte(epoch)}, nil }})
		if err != nil && !errors.Is(err, training.ErrStopEarly) {
			return nil, err
		}
		last = epoch
		if err != nil {
			break
		}
	}
	return &training.Result{Artifact: []byte("final"), Epoch: last}, nil
}
