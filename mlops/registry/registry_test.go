//go:build duckdb_arrow

package registry_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/storage"
)

// open returns a registry over a fresh in-memory database, set up.
func open(t *testing.T, opts registry.Options) (*registry.Registry, *storage.DB) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Path: storage.MemoryPath}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(context.Background()) })
	reg := registry.New(db, opts)
	if err := reg.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	return reg, db
}

func spec(name string) registry.Spec {
	return registry.Spec{Kind: "toy", Name: name, Params: map[string]int{"epochs": 3}, Source: "t", Fingerprint: "f",
		Rows: 10, Entities: 2, Epochs: 3, Deploy: "auto"}
}

// train runs a whole training of name to the end, with test losses
// losses, one per epoch, and returns its version.
func train(t *testing.T, reg *registry.Registry, name string, losses ...float64) mlops.Ref {
	t.Helper()
	tr, err := reg.Begin(context.Background(), spec(name))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range losses {
		if _, err := tr.Epoch(i+1, l, l, l, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	last := losses[len(losses)-1]
	if note := tr.Finish(&registry.Result{Artifact: []byte(name + " weights"), Epoch: len(losses), Metrics: []string{"m"},
		TestLoss: last, Report: map[string]int{"epochs": len(losses)}}); note == "" {
		t.Fatal("Finish gave no note of deployment")
	}
	return tr.Ref()
}

func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	reg, _ := open(t, registry.Options{Version: "test"})
	tr, err := reg.Begin(ctx, spec("m"))
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Ref(); got != (mlops.Ref{Name: "m", Version: 1}) {
		t.Fatalf("first version %v, want m@1", got)
	}
	if _, err := reg.Describe(ctx, "toy", tr.Ref()); !errors.Is(err, registry.ErrNoWeights) {
		t.Fatalf("Describe before a checkpoint: %v, want ErrNoWeights", err)
	}
	var bests []bool
	for i, loss := range []float64{3, 1, 2} {
		best, err := tr.Epoch(i+1, loss+1, loss, loss, 5, map[string]float64{"x": loss})
		if err != nil {
			t.Fatal(err)
		}
		bests = append(bests, best)
		if best {
			if err := tr.Checkpoint(i+1, []byte("checkpoint")); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !slices.Equal(bests, []bool{true, true, false}) {
		t.Fatalf("best epochs %v, want [true true false]", bests)
	}
	if _, err := reg.Describe(ctx, "toy", tr.Ref()); !errors.Is(err, registry.ErrTraining) {
		t.Fatalf("Describe while training: %v, want ErrTraining", err)
	}
	run, err := reg.Run(ctx, tr.ID())
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != registry.StatusTraining || run.EpochsDone != 3 || *run.BestEpoch != 2 || *run.BestTestLoss != 1 {
		t.Fatalf("run while training: %+v", run)
	}
	note := tr.Finish(&registry.Result{Artifact: []byte("final"), Epoch: 3, Metrics: []string{"m"}, TestLoss: 1, Report: map[string]int{"a": 1}})
	if note != "m@1 is deployed" {
		t.Fatalf("Finish: %q", note)
	}
	m, err := reg.Load(ctx, "toy", mlops.Ref{Name: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Artifact) != "final" || m.Ref.Version != 1 || m.Status != registry.StatusReady || m.Epoch != 3 {
		t.Fatalf("Load of the deployed version: %+v", m)
	}
	if run, _ = reg.Run(ctx, tr.ID()); run.Status != "succeeded" || run.FinishedAt == nil || *run.Hyperparameters != `{"epochs":3}` {
		t.Fatalf("run after Finish: %+v", run)
	}
	metrics, err := reg.Metrics(ctx, tr.ID())
	if err != nil || len(metrics) != 3 || metrics[1].TestLoss != 1 || *metrics[2].Extra != `{"x":2}` {
		t.Fatalf("Metrics: %+v, %v", metrics, err)
	}
	if report, err := reg.Report(ctx, tr.Ref()); err != nil || string(report) != `{"a":1}` {
		t.Fatalf("Report: %s, %v", report, err)
	}
	versions, err := reg.Versions(ctx, "")
	if err != nil || len(versions) != 1 || !versions[0].Deployed || versions[0].Kind != "toy" || *versions[0].TestLoss != 1 {
		t.Fatalf("Versions: %+v, %v", versions, err)
	}
}

func TestFailAndCancel(t *testing.T) {
	ctx := context.Background()
	reg, _ := open(t, registry.Options{})
	for _, tc := range []struct {
		name       string
		cause      error
		wantStatus string
		wantErr    error // of Describe afterwards
	}{
		{"failed", errors.New("diverged"), registry.StatusFailed, registry.ErrNoWeights},
		{"canceled", context.Canceled, registry.StatusCanceled, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := reg.Begin(ctx, spec(tc.name))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tr.Epoch(1, 1, 1, 1, 1, nil); err != nil {
				t.Fatal(err)
			}
			if err := tr.Checkpoint(1, []byte("checkpoint")); err != nil {
				t.Fatal(err)
			}
			tr.Fail(tc.cause)
			run, err := reg.Run(ctx, tr.ID())
			if err != nil || run.Status != tc.wantStatus || run.Error == nil {
				t.Fatalf("run: %+v, %v", run, err)
			}
			m, err := reg.Load(ctx, "toy", tr.Ref())
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Load: %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr == nil && (string(m.Artifact) != "checkpoint" || m.Status != tc.wantStatus) {
				t.Fatalf("Load of a canceled version: %+v", m)
			}
		})
	}
}

// TestCancelQueued: a run waiting for a training slot is canceled by its
// id and ends canceled, without a version.
func TestCancelQueued(t *testing.T) {
	ctx := context.Background()
	reg, _ := open(t, registry.Options{MaxTrainings: 1})
	first, err := reg.Begin(ctx, spec("a"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := reg.Begin(ctx, spec("b"))
		done <- err
	}()
	// The second run is queued once it is cancelable; its id is the next.
	for !reg.Cancel(first.ID()+1, context.Canceled) {
		select {
		case err := <-done:
			t.Fatalf("second Begin returned %v while the first trains", err)
		case <-time.After(time.Millisecond):
		}
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled Begin: %v", err)
	}
	run, err := reg.Run(ctx, first.ID()+1)
	if err != nil || run.Status != registry.StatusCanceled || run.Version != nil {
		t.Fatalf("canceled run: %+v, %v", run, err)
	}
	first.Fail(errors.New("stop"))
}

func TestDeployRollbackDrop(t *testing.T) {
	ctx := context.Background()
	reg, _ := open(t, registry.Options{})
	v1 := train(t, reg, "m", 2)
	v2 := train(t, reg, "m", 3) // worse: not deployed
	deployed := func() int {
		m, err := reg.Describe(ctx, "toy", mlops.Ref{Name: "m"})
		if err != nil {
			t.Fatal(err)
		}
		return m.Ref.Version
	}
	if got := deployed(); got != v1.Version {
		t.Fatalf("deployed %d after a worse version, want %d", got, v1.Version)
	}
	if err := reg.Deploy(ctx, v2); err != nil || deployed() != v2.Version {
		t.Fatalf("Deploy(%v): %v", v2, err)
	}
	if to, err := reg.Rollback(ctx, "m"); err != nil || to != v1 {
		t.Fatalf("Rollback: %v, %v", to, err)
	}
	var e *registry.Error
	if _, err := reg.Rollback(ctx, "m"); !errors.Is(err, registry.ErrNoEarlier) || !errors.As(err, &e) || e.Deployed != v1.Version {
		t.Fatalf("second Rollback: %v", err)
	}
	tr, err := reg.Begin(ctx, spec("m"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Drop(ctx, tr.Ref()); !errors.Is(err, registry.ErrInUse) || !errors.As(err, &e) || e.Run != tr.ID() {
		t.Fatalf("Drop of a training version: %v", err)
	}
	if err := reg.Deploy(ctx, tr.Ref()); !errors.Is(err, registry.ErrNotReady) {
		t.Fatalf("Deploy of a training version: %v", err)
	}
	tr.Fail(errors.New("stop"))
	if err := reg.Deploy(ctx, v2); err != nil {
		t.Fatal(err)
	}
	if n, err := reg.Drop(ctx, v2); err != nil || n != 1 || deployed() != v1.Version {
		t.Fatalf("Drop of the deployed version: %d, %v; deployed %d, want %d", n, err, deployed(), v1.Version)
	}
	_, err = reg.Drop(ctx, v2)
	if !errors.Is(err, registry.ErrNoVersion) || !errors.As(err, &e) || !slices.Equal(e.Versions, []int{1, 3}) {
		t.Fatalf("Drop of a dropped version: %v (versions %v)", err, e.Versions)
	}
	if n, err := reg.Drop(ctx, mlops.Ref{Name: "m"}); err != nil || n != 2 {
		t.Fatalf("Drop of every version: %d, %v", n, err)
	}
	for _, err := range []error{
		reg.Deploy(ctx, v1),
		func() error { _, err := reg.Rollback(ctx, "m"); return err }(),
		func() error { _, err := reg.Describe(ctx, "toy", mlops.Ref{Name: "m"}); return err }(),
	} {
		if !errors.Is(err, registry.ErrNoModel) {
			t.Errorf("after Drop: %v, want ErrNoModel", err)
		}
	}
}

func TestLoadChecks(t *testing.T) {
	ctx := context.Background()
	reg, db := open(t, registry.Options{})
	ref := train(t, reg, "m", 1)
	if _, err := reg.Load(ctx, "other", ref); !errors.Is(err, registry.ErrWrongKind) {
		t.Fatalf("Load of another kind: %v", err)
	}
	decodes := 0
	decode := func(b []byte) (any, error) { decodes++; return string(b), nil }
	for range 2 {
		if _, v, err := reg.Decoded(ctx, "toy", ref, decode); err != nil || v != "m weights" {
			t.Fatalf("Decoded: %v, %v", v, err)
		}
	}
	if decodes != 1 {
		t.Fatalf("decoded %d times, want once: the second comes from the cache", decodes)
	}
	if _, err := db.SQL().ExecContext(ctx, "UPDATE mlops.artifacts SET data = 'x'::BLOB"); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Load(ctx, "toy", ref); !errors.Is(err, registry.ErrCorrupted) {
		t.Fatalf("Load of changed weights: %v", err)
	}
	if _, err := db.SQL().ExecContext(ctx, "DELETE FROM mlops.artifacts"); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Load(ctx, "toy", ref); !errors.Is(err, registry.ErrMissing) {
		t.Fatalf("Load of deleted weights: %v", err)
	}
}

// TestSetupRecovers: runs a stopped process left training are
// interrupted when the registry is set up again, and keep their
// checkpoint.
func TestSetupRecovers(t *testing.T) {
	ctx := context.Background()
	reg, db := open(t, registry.Options{})
	tr, err := reg.Begin(ctx, spec("m"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Checkpoint(1, []byte("c")); err != nil {
		t.Fatal(err)
	}
	before, _ := reg.State(ctx)
	again := registry.New(db, registry.Options{})
	if err := again.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	if after, _ := again.State(ctx); after == before {
		t.Fatalf("State did not change when the run was interrupted: %s", after)
	}
	run, err := again.Run(ctx, tr.ID())
	if err != nil || run.Status != "interrupted" {
		t.Fatalf("run after Setup: %+v, %v", run, err)
	}
	if m, err := again.Load(ctx, "toy", tr.Ref()); err != nil || string(m.Artifact) != "c" {
		t.Fatalf("checkpoint of an interrupted version: %v", err)
	}
	if _, err := again.Run(ctx, 99); !errors.Is(err, registry.ErrNoRun) {
		t.Fatalf("Run(99): %v", err)
	}
}

// TestRecordCheckpoints: Record stores a checkpoint at each new lowest
// selection loss, or every CheckpointEvery epochs, and never at the last
// epoch, whose model Finish stores.
func TestRecordCheckpoints(t *testing.T) {
	ctx := context.Background()
	reg, _ := open(t, registry.Options{})
	for _, tc := range []struct {
		name   string
		every  int
		losses []float64 // selection losses of epochs 1, 2, ...
		want   []int     // the epochs checkpointed
	}{
		{"at new bests", 0, []float64{3, 1, 2, 0.5}, []int{1, 2}},
		{"every 2", 2, []float64{1, 2, 3, 4, 5}, []int{2, 4}},
		{"every 2, last even", 2, []float64{1, 2, 3, 4}, []int{2}},
		{"every 1", 1, []float64{2, 1}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := spec(tc.name)
			s.Epochs, s.CheckpointEvery = len(tc.losses), tc.every
			tr, err := reg.Begin(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Fail(errors.New("test over"))
			var got []int
			for i, l := range tc.losses {
				epoch := i + 1
				if _, err := tr.Record(registry.Losses{Epoch: epoch, Train: l, Test: l, Selection: l}, func() ([]byte, error) {
					got = append(got, epoch)
					return []byte{byte(epoch)}, nil
				}); err != nil {
					t.Fatal(err)
				}
				if n := len(got); n > 0 {
					if v, err := reg.Version(ctx, tr.Ref()); err != nil || v.CheckpointEpoch == nil || *v.CheckpointEpoch != got[n-1] {
						t.Fatalf("after epoch %d: checkpoint epoch %v (%v), want %d", epoch, v.CheckpointEpoch, err, got[n-1])
					}
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("checkpointed epochs %v, want %v", got, tc.want)
			}
		})
	}
}
