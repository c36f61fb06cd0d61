package job_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/series"
)

const version = "test-1"

// gatJob writes a small GAT job to a new directory: 8 entities, 160 steps.
func gatJob(t testing.TB, workers int, hyper string) string {
	t.Helper()
	return gatJobOf(t, version, workers, hyper)
}

// gatJobOf is gatJob for a worker of version v.
func gatJobOf(t testing.TB, v string, workers int, hyper string) string {
	t.Helper()
	dir := t.TempDir()
	if err := job.WriteMatrix(context.Background(), filepath.Join(dir, "part-0.parquet"), series.Synthetic(8, 160, 3, 12)); err != nil {
		t.Fatal(err)
	}
	spec := job.Spec{Version: v, Kind: job.KindGAT, Time: []string{"t"}, Seed: 5, Workers: workers, CheckpointEvery: 2,
		GAT: json.RawMessage(hyper)}
	if err := spec.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

const smallGAT = `{"epochs": 4, "hidden": [8, 8], "batch_size": 16, "patience": 0}`

// readProgress reads a job's progress lines.
func readProgress(t testing.TB, dir string) []job.Progress {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, job.ProgressFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []job.Progress
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p job.Progress
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestGATJobIsTrainGAT checks that a job of one rank trains the model
// gat.Train trains on the same data and configuration, and writes its
// progress, a checkpoint and an artifact that decodes.
func TestGATJobIsTrainGAT(t *testing.T) {
	dir := gatJob(t, 2, smallGAT)
	world := parallel.LocalComms(1)[0]
	res, err := job.Run(context.Background(), dir, version, world)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := job.ReadSpec(dir, version)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := spec.GATConfig(1)
	if err != nil {
		t.Fatal(err)
	}
	var want []gat.Epoch
	model, err := gat.Train(context.Background(), cfg, series.Synthetic(8, 160, 3, 12), func(e gat.Epoch) error {
		want = append(want, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := readProgress(t, dir)
	if len(got) != len(want) || res.Epochs != len(want) {
		t.Fatalf("%d progress lines and %d epochs reported, want %d", len(got), res.Epochs, len(want))
	}
	for i, e := range want {
		if g := got[i]; g.Epoch != e.Epoch || *g.Metrics["train_mse"] != e.TrainMSE || *g.Metrics["test_mse"] != e.TestMSE {
			t.Errorf("epoch %d: progress %+v, want train %v test %v", e.Epoch, g, e.TrainMSE, e.TestMSE)
		}
	}
	a := readArtifact(t, dir)
	for i := range model.Weights {
		if !slices.Equal(a.Model.Weights[i], model.Weights[i]) {
			t.Fatalf("artifact's weights %d differ from gat.Train's", i)
		}
	}
	if !slices.Equal(a.Entities, []string{"e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7"}) || !slices.Equal(a.TimeKinds, []string{"int"}) ||
		len(a.LastTimes) != 2 || a.LastTimes[0][0] != "159" || len(a.Data) != 8*160 {
		t.Errorf("artifact: entities %v, time kinds %v, last times %v, %d data", a.Entities, a.TimeKinds, a.LastTimes, len(a.Data))
	}
	if _, err := os.Stat(filepath.Join(dir, job.CheckpointFile)); err != nil {
		t.Errorf("no checkpoint: %v", err)
	}
}

func TestSpecRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*job.Spec)
		wantIs error
	}{
		{"another version", func(s *job.Spec) { s.Version = "0.0.0" }, job.ErrVersion},
		{"unknown kind", func(s *job.Spec) { s.Kind = "cnn" }, nil},
		{"no time columns", func(s *job.Spec) { s.Time = nil }, nil},
		{"missing time column", func(s *job.Spec) { s.Time = []string{"year"} }, nil},
		{"no files", func(s *job.Spec) { s.Source = "none-*.parquet" }, nil},
		{"bad hyperparameter", func(s *job.Spec) { s.GAT = json.RawMessage(`{"epochs": 0}`) }, nil},
		{"shard without a start", func(s *job.Spec) { s.Shard = job.ShardFile }, nil},
		{"missing start", func(s *job.Spec) { s.Start = "none.artifact" }, nil},
		{"start_epoch of a GAT job", func(s *job.Spec) { s.StartEpoch = 2 }, nil},
		{"classifier without its model", func(s *job.Spec) { s.Kind = job.KindClassifier }, nil},
		{"classifier without its rows", func(s *job.Spec) {
			s.Kind, s.Classifier = job.KindClassifier, &job.Classifier{Model: &classifier.Model{}, Config: classifier.DefaultConfig()}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gatJob(t, 1, smallGAT)
			spec, err := job.ReadSpec(dir, version)
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(&spec)
			if err := spec.Write(dir); err != nil {
				t.Fatal(err)
			}
			world := parallel.LocalComms(1)[0]
			_, err = job.Run(context.Background(), dir, version, world)
			if err == nil || (tc.wantIs != nil && !errors.Is(err, tc.wantIs)) {
				t.Fatalf("Run = %v, want an error (%v)", err, tc.wantIs)
			}
			if _, serr := os.Stat(filepath.Join(dir, job.ArtifactFile)); serr == nil {
				t.Errorf("a refused job wrote an artifact (%v)", err)
			}
		})
	}
}

// gatCheckpoint is the last checkpoint, of epoch 2, of a job of smallGAT's
// options but 2 epochs on one rank of one worker: as written, and decoded.
func gatCheckpoint(t *testing.T) ([]byte, *gat.Artifact) {
	t.Helper()
	first := gatJob(t, 1, strings.Replace(smallGAT, `"epochs": 4`, `"epochs": 2`, 1))
	if _, err := job.Run(context.Background(), first, version, parallel.LocalComms(1)[0]); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(first, job.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	a, err := gat.UnmarshalArtifact(data)
	if err != nil || a.Epoch != 2 {
		t.Fatalf("the checkpoint decodes to epoch %v (%v), want 2", a, err)
	}
	return data, a
}

// TestGATJobStart checks a GAT job that starts from a checkpoint (spec
// start): it trains the epochs after the checkpoint's, as gat.TrainFrom
// does from the same model; and that checkpoint_best writes a checkpoint
// at a best epoch.
func TestGATJobStart(t *testing.T) {
	checkpoint, a := gatCheckpoint(t)
	dir := gatJob(t, 1, smallGAT)
	spec, err := job.ReadSpec(dir, version)
	if err != nil {
		t.Fatal(err)
	}
	spec.Start, spec.CheckpointEvery, spec.CheckpointBest, spec.CheckpointFiles = "start.artifact", 0, true, true
	if err := spec.Write(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, spec.Start), checkpoint, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := job.Run(context.Background(), dir, version, parallel.LocalComms(1)[0])
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := spec.GATConfig(1)
	if err != nil {
		t.Fatal(err)
	}
	var want []gat.Epoch
	if _, err := gat.TrainFrom(context.Background(), cfg, series.Synthetic(8, 160, 3, 12), gat.Start{Model: a.Model, Epoch: 2}, func(e gat.Epoch) error {
		want = append(want, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got := readProgress(t, dir)
	if len(got) != 2 || len(want) != 2 || res.Epochs != 4 {
		t.Fatalf("%d progress lines, %d epochs from gat.TrainFrom, the job's last epoch %d; want 2, 2, 4", len(got), len(want), res.Epochs)
	}
	best := false
	for i, e := range want {
		if g := got[i]; g.Epoch != e.Epoch || *g.Metrics["train_mse"] != e.TrainMSE || *g.Metrics["test_mse"] != e.TestMSE {
			t.Errorf("epoch %d: progress %+v, want train %v test %v", e.Epoch, g, e.TrainMSE, e.TestMSE)
		}
		best = best || got[i].Best
	}
	if _, err := os.Stat(filepath.Join(dir, job.CheckpointFile)); (err == nil) != best {
		t.Errorf("checkpoint_best: a best epoch %v, a checkpoint written: %v", best, err)
	}
	latest, _ := os.ReadFile(filepath.Join(dir, job.CheckpointFile))
	for _, p := range got { // checkpoint_files: each best epoch's checkpoint in a file of its own
		data, err := os.ReadFile(filepath.Join(dir, job.CheckpointFileOf(p.Epoch)))
		if (err == nil) != p.Best {
			t.Errorf("epoch %d, best %v: its checkpoint file: %v", p.Epoch, p.Best, err)
		}
		if err == nil {
			if a, err := gat.UnmarshalArtifact(data); err != nil || a.Epoch != p.Epoch {
				t.Errorf("epoch %d's checkpoint file decodes to %v (%v)", p.Epoch, a, err)
			}
			if p.Epoch == 4 && !bytes.Equal(data, latest) {
				t.Errorf("%s is not the last checkpoint", job.CheckpointFile)
			}
		}
	}
}
