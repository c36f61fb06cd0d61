//go:build unix

package training_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// fakeRanks is a launcher script that plays rank 0 of a job of $2 ranks
// in job directory $1: two epochs, each with a checkpoint file written
// before its progress line, then the final artifact and rank 0's line.
const fakeRanks = `dir=$1
printf 'ckpt1' > "$dir/checkpoint-1.artifact"
printf '{"epoch":1,"metrics":{"train_loss":2},"best":true,"elapsed_ms":5}\n' >> "$dir/progress.jsonl"
printf 'ckpt2' > "$dir/checkpoint-2.artifact"
printf '{"epoch":2,"metrics":{"train_loss":1},"best":true,"elapsed_ms":9}\n' >> "$dir/progress.jsonl"
printf 'final' > "$dir/model.artifact"
echo "rank 0/$2: done"
`

// rankModel trains by launching l, reading rank 0's epochs.
type rankModel struct {
	l      *training.Launch
	epochs int
	spec   string // the spec the launch had written, read back by export
}

func (m *rankModel) Spec() training.Spec {
	return training.Spec{Kind: "toy", Name: "m", Epochs: m.epochs}
}

func (m *rankModel) Fingerprint() string { return "fp" }

func (m *rankModel) Train(ctx context.Context, run *training.Run) (*training.Result, error) {
	spec := func(dir, version string) error {
		return os.WriteFile(filepath.Join(dir, "job.json"), []byte(`{"version":"`+version+`"}`), 0o644)
	}
	data, err := m.l.Train(ctx, run, spec, func(context.Context, string) error { return nil }, func(dir string, p training.Progress) training.Epoch {
		l := p.Metric("train_loss")
		return training.Epoch{Losses: training.Losses{Epoch: p.Epoch, Train: l, Test: l, Selection: l, ElapsedMS: float64(p.ElapsedMS)},
			Measure: "train_loss", Metrics: []any{l}, Notice: "train_loss " + strconv.FormatFloat(l, 'g', -1, 64),
			Snapshot: func() ([]byte, error) { return training.RankCheckpoint(dir, p.Epoch), nil }}
	})
	if err != nil {
		return nil, err
	}
	return &training.Result{Artifact: data, Epoch: m.epochs}, nil
}

// TestLaunchTrain: a run across ranks streams rank 0's epochs as a local
// run's, with NOTICEs naming the ranks, stores rank 0's checkpoints where
// due and its artifact as the result, and removes the job directory.
func TestLaunchTrain(t *testing.T) {
	script := filepath.Join(t.TempDir(), "ranks.sh")
	if err := os.WriteFile(script, []byte(fakeRanks), 0o755); err != nil {
		t.Fatal(err)
	}
	jobs := t.TempDir()
	l, err := training.NewLaunch("train_toy", 2, training.MPI{Launcher: "sh " + script + " {job} {ranks}", JobDir: jobs, Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	r := newRig()
	rows, err := training.Start(context.Background(), r.job, func(context.Context, *training.Memory) (training.Model, error) {
		return &rankModel{l: l, epochs: 3}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	epochs, err := drain(rows)
	if err != nil || !slices.Equal(epochs, []int64{1, 2}) {
		t.Fatalf("rows %v (%v), want epochs 1, 2", epochs, err)
	}
	status, _, checkpoints, artifact, _ := r.reg.only().state()
	if status != "succeeded" || string(artifact) != "final" || !slices.Equal(checkpoints, []int{1, 2}) {
		t.Fatalf("record: %s, artifact %q, checkpoints %v", status, artifact, checkpoints)
	}
	if n := r.notices.all(); len(n) < 2 || n[0] != "train_toy m@1: epoch 1 train_loss 2; 2 ranks" {
		t.Fatalf("notices %q", n)
	}
	if left, _ := os.ReadDir(jobs); len(left) != 0 {
		t.Fatalf("the job directory is left: %v", left)
	}
}

// TestLaunchRefused: a launcher that names no job directory, and ranks
// without a job directory, are refused before anything starts.
func TestLaunchRefused(t *testing.T) {
	if err := training.CheckLauncher("srun -n {ranks} mallard train-worker"); err == nil {
		t.Fatal("a launcher without {job} was accepted")
	}
	_, err := training.NewLaunch("train_toy", 2, training.MPI{Launcher: "sh -c true {job}"})
	if code := sqlstate.CodeOf(err); code != sqlstate.ObjectNotInPrerequisiteState {
		t.Fatalf("no job directory: %v (%s), want 55000", err, code)
	}
}
