//go:build duckdb_arrow

package registry

import (
	"context"
	"fmt"

	"github.com/mallard/mallard/mlops"
)

// Versions are the versions of model name, newest first; of every model
// by name when name is "". A model without versions has none: no error.
func (r *Registry) Versions(ctx context.Context, name string) ([]Version, error) {
	out, err := r.store.Versions(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("read model versions: %w", err)
	}
	return out, nil
}

// Version reads one model version: ErrNoModel or ErrNoVersion if there
// is no such version. Unlike Describe, it does not resolve version 0.
func (r *Registry) Version(ctx context.Context, ref mlops.Ref) (Version, error) {
	v, found, err := r.store.Version(ctx, ref)
	if err != nil {
		return v, fmt.Errorf("read %s: %w", ref, err)
	}
	if !found {
		return v, noModel(ctx, r.store, ref)
	}
	return v, nil
}

// Kinds are the kinds of model name's versions: none if it has none.
func (r *Registry) Kinds(ctx context.Context, name string) ([]string, error) {
	out, err := r.store.Kinds(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("read kinds of %q: %w", name, err)
	}
	return out, nil
}

// LatestWithWeights is the newest version of model name that has saved
// weights (final or a checkpoint); 0 if none has.
func (r *Registry) LatestWithWeights(ctx context.Context, name string) (int, error) {
	return r.store.LatestWithWeights(ctx, name)
}

// Runs are the latest limit training runs, newest first.
func (r *Registry) Runs(ctx context.Context, limit int) ([]Run, error) {
	out, err := r.store.Runs(ctx, limit)
	if err != nil {
		return nil, fmt.Errorf("read training runs: %w", err)
	}
	return out, nil
}

// Run reads training run id: ErrNoRun if there is none.
func (r *Registry) Run(ctx context.Context, id int64) (Run, error) {
	u, found, err := r.store.Run(ctx, id)
	if err != nil {
		return u, fmt.Errorf("read training run %d: %w", id, err)
	}
	if !found {
		return u, &Error{Err: ErrNoRun, Run: id}
	}
	return u, nil
}

// Metrics are the epochs training run id recorded so far, in order.
func (r *Registry) Metrics(ctx context.Context, id int64) ([]Metric, error) {
	out, err := r.store.Metrics(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("read metrics of training run %d: %w", id, err)
	}
	return out, nil
}

// Report is the report of version ref, JSON, stored when it finished
// training: ErrNoReport, with the version's status, if it has none
// (ErrNoModel or ErrNoVersion if there is no such version).
func (r *Registry) Report(ctx context.Context, ref mlops.Ref) ([]byte, error) {
	data, found, err := r.store.Report(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("read report of %s: %w", ref, err)
	}
	if !found {
		_, status, err := versionState(ctx, r.store, ref)
		if err != nil {
			return nil, err
		}
		return nil, &Error{Err: ErrNoReport, Ref: ref, Status: status}
	}
	return []byte(data), nil
}

// State is a fingerprint of the registry: it changes when a run starts,
// records an epoch or changes status, and when a model version changes
// status or deployment.
func (r *Registry) State(ctx context.Context) (string, error) { return r.store.State(ctx) }

func ptr[T any](v T, valid bool) *T {
	if !valid {
		return nil
	}
	return &v
}
