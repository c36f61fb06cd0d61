//go:build duckdb_arrow

package registry

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mallard/mallard/mlops"
)

// The registry's errors. Each is returned wrapped in an *Error, which
// carries what a caller needs to word it for its users; test for them
// with errors.Is.
var (
	ErrNoModel     = errors.New("model does not exist")
	ErrNoVersion   = errors.New("model version does not exist")
	ErrNoRun       = errors.New("training run does not exist")
	ErrNoReport    = errors.New("model version has no report")
	ErrNotDeployed = errors.New("model has no deployed version")
	ErrNoEarlier   = errors.New("model has no earlier deployed version")
	ErrNotReady    = errors.New("model version is not ready")
	ErrInUse       = errors.New("model version is being trained")
	ErrTraining    = errors.New("model version is still training")
	ErrWrongKind   = errors.New("model version is of another kind")
	ErrNoWeights   = errors.New("model version has no saved weights")
	ErrMissing     = errors.New("saved weights are missing")
	ErrCorrupted   = errors.New("saved weights do not match their checksum")
)

// Error is a registry error: Err, one of the sentinels, and the facts
// that explain it. Fields that do not apply to Err are zero.
type Error struct {
	Err error
	// Ref is the model version (Version 0: the model) the error is about.
	Ref mlops.Ref
	// Status is the version's status (ErrNotReady, ErrNoWeights, ErrNoReport).
	Status string
	// Kind is the version's kind and Want the kind asked for (ErrWrongKind).
	Kind, Want string
	// Versions are the model's versions, oldest first (ErrNoVersion).
	Versions []int
	// Run is the training run asked for (ErrNoRun) or training Ref (ErrInUse).
	Run int64
	// Deployed is the deployed version (ErrNoEarlier).
	Deployed int
	// Checksum is the recorded checksum of the weights and Got theirs (ErrCorrupted).
	Checksum, Got string
}

func (e *Error) Error() string {
	switch e.Err {
	case ErrNoVersion:
		return fmt.Sprintf("model %q has no version %d", e.Ref.Name, e.Ref.Version)
	case ErrNoRun:
		return fmt.Sprintf("training run %d does not exist", e.Run)
	case ErrInUse:
		return fmt.Sprintf("training run %d is training %s", e.Run, e.Ref)
	case ErrNotReady, ErrNoWeights, ErrNoReport:
		return fmt.Sprintf("%s is %s: %v", e.Ref, e.Status, e.Err)
	case ErrWrongKind:
		return fmt.Sprintf("%s is of kind %s, not %s", e.Ref, e.Kind, e.Want)
	}
	return fmt.Sprintf("%s: %v", e.Ref, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// VersionList is Versions as text: "1, 2, 3".
func (e *Error) VersionList() string {
	parts := make([]string, len(e.Versions))
	for i, v := range e.Versions {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ", ")
}
