//go:build duckdb_arrow

package registry

import (
	"context"
	"fmt"

	"github.com/mallard/mallard/mlops"
)

// Model is a model version as the registry keeps it, with its artifact
// when it was loaded.
type Model struct {
	Ref      mlops.Ref // the version, never 0
	Kind     string
	Status   string
	Scaler   string
	Metrics  string // JSON
	Epoch    int    // of the artifact
	Checksum string // of the artifact
	Artifact []byte
}

// Load reads a model version of kind and its artifact, verified against
// its checksum. Version 0 is the deployed one. A version that is training
// or failed has no usable artifact; a canceled or interrupted one may have
// its last checkpoint.
func (r *Registry) Load(ctx context.Context, kind string, ref mlops.Ref) (*Model, error) {
	m, err := r.Describe(ctx, kind, ref)
	if err != nil {
		return nil, err
	}
	return m, r.readArtifact(ctx, m)
}

// Describe reads what the registry records of a model version of kind,
// checking that it has an artifact, but not the artifact. Version 0 is
// the deployed one (ErrNotDeployed if there is none). It fails with
// ErrNoModel, ErrNoVersion, ErrWrongKind, ErrNoWeights or ErrTraining.
func (r *Registry) Describe(ctx context.Context, kind string, ref mlops.Ref) (*Model, error) {
	if ref.Version == 0 {
		v, _, err := r.store.Deployed(ctx, ref.Name)
		if err != nil {
			return nil, err
		}
		if v == 0 {
			if !r.store.HasModel(ctx, ref.Name) {
				return nil, noModel(ctx, r.store, ref)
			}
			return nil, &Error{Err: ErrNotDeployed, Ref: ref}
		}
		ref.Version = v
	}
	w, found, err := r.store.Weights(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", ref, err)
	}
	if !found {
		return nil, noModel(ctx, r.store, ref)
	}
	m := &Model{Ref: ref, Kind: w.Kind, Status: w.Status, Scaler: w.Scaler, Metrics: w.Metrics, Epoch: w.CheckpointEpoch, Checksum: w.Checksum}
	if m.Kind != kind {
		return nil, &Error{Err: ErrWrongKind, Ref: ref, Kind: m.Kind, Want: kind}
	}
	if m.Checksum == "" {
		return nil, &Error{Err: ErrNoWeights, Ref: ref, Status: m.Status}
	}
	if m.Status == StatusTraining {
		return nil, &Error{Err: ErrTraining, Ref: ref}
	}
	return m, nil
}

// readArtifact reads m's artifact, joining its parts, and verifies it
// against its checksum: ErrMissing if it has no part, ErrCorrupted if
// they do not match.
func (r *Registry) readArtifact(ctx context.Context, m *Model) error {
	var sum string
	var size int64
	parts := 0
	err := r.store.ArtifactParts(ctx, m.Ref, m.Checksum, func(partSum string, partSize int64, data []byte) {
		sum, size = partSum, partSize
		if m.Artifact == nil && size >= 0 && size < 1<<40 {
			m.Artifact = make([]byte, 0, size)
		}
		m.Artifact = append(m.Artifact, data...)
		parts++
	})
	if err != nil {
		return err
	}
	if parts == 0 {
		return &Error{Err: ErrMissing, Ref: m.Ref}
	}
	if got := mlops.Checksum(m.Artifact); sum != m.Checksum || got != sum || int64(len(m.Artifact)) != size {
		return &Error{Err: ErrCorrupted, Ref: m.Ref, Checksum: m.Checksum, Got: got}
	}
	return nil
}

// Decoded returns a model version of kind, as Load does, and its artifact
// as decode makes it: from the registry's cache while the version's
// checksum is the one it was decoded from, so that serving a model does
// not read and decode its weights on every call. The decoded value is
// shared and must not be changed; the Model has no Artifact.
func (r *Registry) Decoded(ctx context.Context, kind string, ref mlops.Ref, decode func([]byte) (any, error)) (*Model, any, error) {
	m, err := r.Describe(ctx, kind, ref)
	if err != nil {
		return nil, nil, err
	}
	key := m.Ref.String() + "#" + m.Checksum
	if v, ok := r.cache.get(key); ok {
		return m, v, nil
	}
	if err := r.readArtifact(ctx, m); err != nil {
		return nil, nil, err
	}
	v, err := decode(m.Artifact)
	if err != nil {
		return nil, nil, err
	}
	m.Artifact = nil
	r.cache.put(key, v)
	return m, v, nil
}
