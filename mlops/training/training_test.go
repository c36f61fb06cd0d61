package training_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// rig is a job on a fake registry, budget and caller.
type rig struct {
	reg     *fakeRegistry
	budget  *fakeBudget
	notices *notices
	job     training.Job
}

func newRig() *rig {
	r := &rig{reg: &fakeRegistry{}, budget: &fakeBudget{}, notices: &notices{}}
	r.job = training.Job{Fn: "train_toy", Registry: r.reg, Budget: r.budget, Notices: r.notices}
	return r
}

// start starts m, reserving 100 bytes while it reads.
func (r *rig) start(t *testing.T, m *fakeModel) (*training.Rows, error) {
	t.Helper()
	return training.Start(context.Background(), r.job, func(ctx context.Context, mem *training.Memory) (training.Model, error) {
		if err := mem.Reserve(ctx, 100, "toy data"); err != nil {
			return nil, err
		}
		return m, nil
	})
}

// drain reads every row and returns their epochs and the end's error.
func drain(rows *training.Rows) ([]int64, error) {
	var epochs []int64
	for {
		row, err := rows.Next()
		if row == nil {
			rows.Close()
			return epochs, err
		}
		epochs = append(epochs, row[0].(int64))
	}
}

// TestTrainedRun: each epoch is recorded and streamed as a row (epoch,
// metrics, best, elapsed_ms) with a NOTICE, and the run finishes with
// its result and gives its memory back.
func TestTrainedRun(t *testing.T) {
	r := newRig()
	rows, err := r.start(t, &fakeModel{losses: []float64{3, 2, 2.5}, fp: "fp"})
	if err != nil {
		t.Fatal(err)
	}
	row, err := rows.Next()
	if err != nil || len(row) != 4 || row[0] != int64(1) || row[1] != 3.0 || row[2] != true {
		t.Fatalf("first row %v (%v), want [1 3 true elapsed]", row, err)
	}
	epochs, err := drain(rows)
	if err != nil || !slices.Equal(epochs, []int64{2, 3}) {
		t.Fatalf("rows after the first: epochs %v (%v), want [2 3]", epochs, err)
	}
	rec := r.reg.only()
	status, recorded, _, artifact, ends := rec.state()
	if status != "succeeded" || !slices.Equal(recorded, []int{1, 2, 3}) || string(artifact) != "final" || ends != 1 {
		t.Fatalf("record: %s, epochs %v, artifact %q, ended %d times", status, recorded, artifact, ends)
	}
	if rec.spec.Fingerprint != "fp" {
		t.Fatalf("registered fingerprint %q, want fp", rec.spec.Fingerprint)
	}
	n := r.notices.all()
	if len(n) != 4 || n[0] != "train_toy m@1: epoch 1 train_loss 3" || n[3] != "train_toy: deployed" {
		t.Fatalf("notices %q", n)
	}
	if held := r.budget.held(); held != 0 {
		t.Fatalf("%d bytes still reserved", held)
	}
}

// TestCancelMidEpoch: a statement that ends while an epoch trains leaves
// the run canceled (57014), its version without a result, and the memory
// given back.
func TestCancelMidEpoch(t *testing.T) {
	r := newRig()
	m := &fakeModel{losses: []float64{3, 2, 1, 0.5}, blockAt: 3, reached: make(chan struct{}), fp: "fp"}
	rows, err := r.start(t, m)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := rows.Next(); err != nil {
			t.Fatal(err)
		}
	}
	<-m.reached
	rows.Close()
	status, epochs, _, artifact, ends := r.reg.only().state()
	if status != "canceled" || !slices.Equal(epochs, []int{1, 2}) || string(artifact) == "final" || ends != 1 {
		t.Fatalf("after cancel: %s, epochs %v, artifact %q, ended %d times; want canceled after epochs 1, 2, no result",
			status, epochs, artifact, ends)
	}
	if code := sqlstate.CodeOf(r.reg.only().cause); code != sqlstate.QueryCanceled {
		t.Fatalf("cause %v (%s), want 57014", r.reg.only().cause, code)
	}
	if held := r.budget.held(); held != 0 {
		t.Fatalf("%d bytes still reserved", held)
	}
}

// TestCancelByRegistry: a run canceled through the registry (mlops.cancel)
// ends canceled, and the statement with the cancel's cause.
func TestCancelByRegistry(t *testing.T) {
	r := newRig()
	m := &fakeModel{losses: []float64{3, 2, 1}, blockAt: 2, reached: make(chan struct{})}
	rows, err := r.start(t, m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rows.Next(); err != nil {
		t.Fatal(err)
	}
	<-m.reached
	cause := sqlstate.New(sqlstate.QueryCanceled, "canceled by mlops.cancel")
	r.reg.only().cancel(cause)
	epochs, err := drain(rows)
	if !errors.Is(err, cause) || len(epochs) != 0 {
		t.Fatalf("rows %v, end %v; want no row after epoch 1, then the cancel's cause", epochs, err)
	}
	if status, _, _, _, _ := r.reg.only().state(); status != "canceled" {
		t.Fatalf("status %s, want canceled", status)
	}
}

// TestFailingEpoch: a run whose epoch fails ends failed with that error,
// keeps no artifact, not even a checkpoint, and gives its memory back.
func TestFailingEpoch(t *testing.T) {
	r := newRig()
	rows, err := r.start(t, &fakeModel{losses: []float64{3, 2, 1}, failAt: 3})
	if err != nil {
		t.Fatal(err)
	}
	epochs, err := drain(rows)
	if !errors.Is(err, errEpoch) || !slices.Equal(epochs, []int64{1, 2}) {
		t.Fatalf("rows %v, end %v; want epochs 1, 2, then the epoch's error", epochs, err)
	}
	status, _, checkpoints, artifact, ends := r.reg.only().state()
	if status != "failed" || artifact != nil || ends != 1 || !slices.Equal(checkpoints, []int{1, 2}) {
		t.Fatalf("record: %s, artifact %q, ended %d times, checkpoints %v", status, artifact, ends, checkpoints)
	}
	if held := r.budget.held(); held != 0 {
		t.Fatalf("%d bytes still reserved", held)
	}
}

// TestFailedIsToldAfterRecording: a model that cleans up after a failed
// run (Failer) is told once, after the failure is recorded, and what it
// says arrives as a NOTICE; a run that succeeds does not tell it.
func TestFailedIsToldAfterRecording(t *testing.T) {
	r := newRig()
	m := &fakeModel{losses: []float64{3, 2, 1}, failAt: 2}
	var statusThen string
	m.onFailed = func() string {
		statusThen, _, _, _, _ = r.reg.only().state()
		return "removed the toy's scratch files"
	}
	rows, err := r.start(t, m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drain(rows); !errors.Is(err, errEpoch) {
		t.Fatalf("end %v, want the epoch's error", err)
	}
	if m.failed != 1 || statusThen != "failed" {
		t.Errorf("Failed called %d times, with the run %q; want once, after it was recorded failed", m.failed, statusThen)
	}
	if !slices.Contains(r.notices.all(), "train_toy: removed the toy's scratch files") {
		t.Errorf("notices %q lack Failed's", r.notices.all())
	}
	ok := &fakeModel{losses: []float64{3, 2, 1}}
	rows, err = newRig().start(t, ok)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drain(rows); err != nil || ok.failed != 0 {
		t.Errorf("a run that succeeded: end %v, Failed called %d times", err, ok.failed)
	}
}

// TestRefusedBeforeRegistering: a run refused before it trains (its data
// cannot be read, the model refuses it, a resumed run's data changed)
// registers nothing and gives back what it reserved.
func TestRefusedBeforeRegistering(t *testing.T) {
	errRead := errors.New("the source cannot be read")
	resume := &training.Resume{From: mlops.Ref{Name: "m", Version: 1}, Fingerprint: "old"}
	for _, tc := range []struct {
		name     string
		read     error
		model    *fakeModel
		resume   *training.Resume
		wantCode sqlstate.Code
	}{
		{"read fails", errRead, &fakeModel{}, nil, ""},
		{"prepare refuses", nil, &fakeModel{prepErr: sqlstate.New(sqlstate.InvalidParameterValue, "no")}, nil, sqlstate.InvalidParameterValue},
		{"resumed data changed", nil, &fakeModel{fp: "new"}, resume, sqlstate.InvalidParameterValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig()
			r.job.Resume = tc.resume
			_, err := training.Start(context.Background(), r.job, func(ctx context.Context, mem *training.Memory) (training.Model, error) {
				if err := mem.Reserve(ctx, 100, "toy data"); err != nil {
					return nil, err
				}
				return tc.model, tc.read
			})
			if err == nil || tc.read != nil && !errors.Is(err, tc.read) || sqlstate.CodeOf(err) != tc.wantCode && tc.wantCode != "" {
				t.Fatalf("Start: %v, want a refusal", err)
			}
			if len(r.reg.runs) != 0 {
				t.Fatalf("%d runs registered, want none", len(r.reg.runs))
			}
			if held := r.budget.held(); held != 0 {
				t.Fatalf("%d bytes still reserved", held)
			}
		})
	}
}

// TestResumeAllowDataChange: a resumed run on changed data registers
// when allowed, and records the version it continues.
func TestResumeAllowDataChange(t *testing.T) {
	r := newRig()
	r.job.Resume = &training.Resume{From: mlops.Ref{Name: "m", Version: 1}, Fingerprint: "old", AllowDataChange: true}
	rows, err := r.start(t, &fakeModel{losses: []float64{1}, fp: "new"})
	if err != nil {
		t.Fatal(err)
	}
	drain(rows)
	if got := r.reg.only().spec.ResumedFrom; got != "m@1" {
		t.Fatalf("resumed_from %q, want m@1", got)
	}
}

// TestCheckpoints: checkpoints are stored every N epochs, or at every new
// lowest selection loss, never at the last epoch.
func TestCheckpoints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		every  int
		losses []float64
		want   []int
	}{
		{"at new bests", 0, []float64{3, 1, 2, 0.5}, []int{1, 2}},
		{"every 2", 2, []float64{1, 2, 3, 4, 5}, []int{2, 4}},
		{"every 2, last even", 2, []float64{1, 2, 3, 4}, []int{2}},
		{"every 3", 3, []float64{5, 4, 3, 2, 1, 0, 1}, []int{3, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig()
			m := &fakeModel{losses: tc.losses}
			rows, err := training.Start(context.Background(), r.job, func(context.Context, *training.Memory) (training.Model, error) {
				return everyModel{m, tc.every}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := drain(rows); err != nil {
				t.Fatal(err)
			}
			if _, _, got, _, _ := r.reg.only().state(); !slices.Equal(got, tc.want) {
				t.Fatalf("checkpointed epochs %v, want %v", got, tc.want)
			}
		})
	}
}

// everyModel is a fakeModel whose run checkpoints every `every` epochs.
type everyModel struct {
	*fakeModel
	every int
}

func (m everyModel) Spec() training.Spec {
	s := m.fakeModel.Spec()
	s.CheckpointEvery = m.every
	return s
}

// TestEarlyStop: with a patience, a run whose selection loss has not
// improved in so many epochs stops there, says so, and finishes.
func TestEarlyStop(t *testing.T) {
	r := newRig()
	r.job.Patience = 2
	rows, err := r.start(t, &fakeModel{losses: []float64{3, 1, 2, 2, 2, 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	epochs, err := drain(rows)
	if err != nil || !slices.Equal(epochs, []int64{1, 2, 3, 4}) {
		t.Fatalf("rows %v (%v), want epochs 1 to 4", epochs, err)
	}
	if status, _, _, _, _ := r.reg.only().state(); status != "succeeded" {
		t.Fatalf("status %s, want succeeded", status)
	}
	n := r.notices.all()
	if !slices.Contains(n, "train_toy m@1: stopped early at epoch 4: no lower selection loss in the 2 epochs since epoch 2") {
		t.Fatalf("notices %q name no early stop", n)
	}
}

// TestDivergence: an epoch whose training loss is not finite fails the
// run with 22000 naming the measure, the value and the epoch, with the
// model's hint, and is not recorded.
func TestDivergence(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		r := newRig()
		rows, err := r.start(t, &fakeModel{losses: []float64{2, 1, bad, 0.5}})
		if err != nil {
			t.Fatal(err)
		}
		epochs, err := drain(rows)
		var e *sqlstate.Error
		if !errors.As(err, &e) || e.Code != sqlstate.DataException || e.Hint != "Lower lr." ||
			!strings.Contains(e.Message, "train_toy: training diverged: train_loss is") || !strings.HasSuffix(e.Message, "at epoch 3") {
			t.Fatalf("end %v, want 22000 naming train_loss at epoch 3, with the hint", err)
		}
		status, recorded, _, _, _ := r.reg.only().state()
		if status != "failed" || !slices.Equal(recorded, []int{1, 2}) || !slices.Equal(epochs, []int64{1, 2}) {
			t.Fatalf("%s, recorded %v, rows %v; want failed after epochs 1, 2", status, recorded, epochs)
		}
	}
}
