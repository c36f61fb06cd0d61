//go:build duckdb_arrow

package registry

import (
	"context"

	"github.com/mallard/mallard/mlops/training"
)

// Lifecycle is the registry as the training lifecycle records runs in it
// (see training.Registry): each run it begins is a Training.
func (r *Registry) Lifecycle() training.Registry { return lifecycle{r} }

// lifecycle is a Registry as training.Registry.
type lifecycle struct{ reg *Registry }

func (r lifecycle) Begin(ctx context.Context, s training.Spec) (training.Record, error) {
	tr, err := r.reg.Begin(ctx, Spec{Kind: s.Kind, Name: s.Name, Params: s.Params, Source: s.Source,
		Fingerprint: s.Fingerprint, Rows: s.Rows, Entities: s.Entities, Scaler: s.Scaler, Epochs: s.Epochs,
		CheckpointEvery: s.CheckpointEvery, ResumedFrom: s.ResumedFrom, Deploy: s.Deploy, Session: s.Session})
	if err != nil {
		return nil, err
	}
	return record{tr}, nil
}

// record is a Training as training.Record.
type record struct{ *Training }

func (r record) Epoch(l training.Losses) (bool, error) {
	return r.Training.Epoch(l.Epoch, l.Train, l.Test, l.Selection, l.ElapsedMS, l.Extra)
}

func (r record) Finish(res *training.Result) string {
	return r.Training.Finish(&Result{Artifact: res.Artifact, Epoch: res.Epoch, Metrics: res.Metrics,
		TestLoss: res.TestLoss, ValLoss: res.ValLoss, Report: res.Report})
}
