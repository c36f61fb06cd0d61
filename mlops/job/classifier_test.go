package job_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/mlops/job"
	"github.com/mallard/mallard/mlops/parallel"
)

// rings is a table of two numeric features and a label, the class of a
// point its ring.
func rings(n int) (*classifier.Table, classifier.Target) {
	x, y := make([]float64, n), make([]float64, n)
	labels := make([]string, n)
	for i := range n {
		r := 1 + float64(i%3)
		a := float64(i) * 2.399963
		x[i], y[i] = r*math.Cos(a), r*math.Sin(a)
		labels[i] = string(rune('a' + i%3))
	}
	t := &classifier.Table{Numeric: []classifier.NumericColumn{{Name: "x", Values: x}, {Name: "y", Values: y}}}
	return t, classifier.Target{Labels: labels}
}

// TestClassifierJobIsFit checks that a classifier job of 2 ranks of 1
// worker reports the epochs classifier.Fit reports with 2 workers (to
// 1e-9 relative), that rank 0's artifact holds a model whose weights are
// Fit's (to 1e-7) with the last epoch's state, and that it keeps a
// checkpoint at each best epoch, which decodes as that epoch's state.
func TestClassifierJobIsFit(t *testing.T) {
	tab, target := rings(120)
	opts := classifier.DefaultOptions()
	opts.Epochs, opts.BatchSize, opts.LR, opts.Workers, opts.Patience, opts.Hidden = 4, 16, 0.01, 2, 0, []int{8}
	var want []classifier.Epoch
	fitted, err := classifier.Fit(context.Background(), opts, tab, target, nil, func(e classifier.Epoch) error { want = append(want, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	p, err := classifier.Prepare(opts, tab, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := job.WriteClassifierData(dir, p); err != nil {
		t.Fatal(err)
	}
	spec := job.Spec{Version: version, Kind: job.KindClassifier, Seed: opts.Seed, Workers: 1, CheckpointBest: true, CheckpointFiles: true,
		Classifier: &job.Classifier{Model: p.Model, Config: p.Config}}
	if err := spec.Write(dir); err != nil {
		t.Fatal(err)
	}
	comms := parallel.LocalComms(2)
	if err := parallel.Run(context.Background(), 2, func(ctx context.Context, rank int) error {
		_, err := job.Run(ctx, dir, version, comms[rank])
		return err
	}); err != nil {
		t.Fatal(err)
	}
	got := readProgress(t, dir)
	if len(got) != len(want) {
		t.Fatalf("%d progress lines, Fit reported %d epochs", len(got), len(want))
	}
	for i, e := range want {
		g := got[i]
		if g.Epoch != e.Epoch || !close9(g.Metric("train_loss"), e.TrainLoss) || !close9(g.Metric("val_loss"), e.ValLoss) || g.Metric("val_accuracy") != e.ValAccuracy {
			t.Errorf("epoch %d: progress %+v, Fit %+v", e.Epoch, g, e)
		}
		if data, err := os.ReadFile(filepath.Join(dir, job.CheckpointFileOf(g.Epoch))); g.Best != (err == nil) {
			t.Errorf("epoch %d: best %v, checkpoint file read: %v", g.Epoch, g.Best, err)
		} else if err == nil {
			var s classifier.State
			if err := json.Unmarshal(data, &s); err != nil || s.Epoch != g.Epoch {
				t.Errorf("epoch %d's checkpoint: %v, state of epoch %d", g.Epoch, err, s.Epoch)
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, job.ArtifactFile))
	if err != nil {
		t.Fatal(err)
	}
	var a job.ClassifierArtifact
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Last == nil || a.Last.Epoch != 4 || len(a.Model.Weights) != len(fitted.Weights) {
		t.Fatalf("artifact: last state %+v, %d weights; want epoch 4's, %d weights", a.Last, len(a.Model.Weights), len(fitted.Weights))
	}
	for i, w := range fitted.Weights {
		if math.Abs(a.Model.Weights[i]-w) > 1e-7*math.Abs(w)+1e-12 {
			t.Fatalf("weight %d: %v from the job, %v from Fit", i, a.Model.Weights[i], w)
		}
	}
}

// close9 tells whether a and b agree to 1e-9 relative.
func close9(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-9*math.Abs(b) }
