// Package mlops is what Mallard's models share: the training runs of one
// server process (how many may train at once, the queue, cancellation),
// model references ('name' or 'name@3') and artifact checksums. It knows
// nothing of SQL; mlops/registry keeps the registry's tables.
package mlops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
)

// Runs are the training runs of one process. At most max of them train at
// once; the others wait, in the order they asked, until a slot is free or
// they are canceled.
type Runs struct {
	slots chan struct{}
	log   *slog.Logger

	mu     sync.Mutex
	active map[int64]context.CancelCauseFunc
}

// NewRuns allows n runs to train at once (at least 1). log records each
// run's queueing, start and end; nil records nothing.
func NewRuns(n int, log *slog.Logger) *Runs {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runs{slots: make(chan struct{}, max(n, 1)), log: log, active: map[int64]context.CancelCauseFunc{}}
}

// Log is where the runs' lifecycle is recorded.
func (r *Runs) Log() *slog.Logger { return r.log }

// Max is how many runs may train at once.
func (r *Runs) Max() int { return cap(r.slots) }

// Track makes run id cancelable with Cancel until untrack is called: the
// returned context ends when ctx does or when Cancel names id. It lives
// on after untrack, until ctx ends, so that the run can still report how
// it ended.
func (r *Runs) Track(ctx context.Context, id int64) (_ context.Context, untrack func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	r.mu.Lock()
	r.active[id] = cancel
	r.mu.Unlock()
	return ctx, func() {
		r.mu.Lock()
		delete(r.active, id)
		r.mu.Unlock()
	}
}

// Cancel stops run id with cause; false if no such run is tracked.
func (r *Runs) Cancel(id int64, cause error) bool {
	r.mu.Lock()
	cancel, ok := r.active[id]
	r.mu.Unlock()
	if ok {
		cancel(cause)
	}
	return ok
}

// Acquire waits for a training slot; release gives it back. It fails with
// ctx's cause if ctx ends first.
func (r *Runs) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case r.slots <- struct{}{}:
		return sync.OnceFunc(func() { <-r.slots }), nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// Ref names a model version: Version 0 means the deployed one.
type Ref struct {
	Name    string
	Version int
}

func (r Ref) String() string {
	if r.Version == 0 {
		return r.Name
	}
	return r.Name + "@" + strconv.Itoa(r.Version)
}

// ParseRef reads 'name' or 'name@version'.
func ParseRef(text string) (Ref, error) {
	name, v, found := strings.Cut(text, "@")
	if name == "" {
		return Ref{}, fmt.Errorf("%q names no model", text)
	}
	if !found {
		return Ref{Name: name}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return Ref{}, fmt.Errorf("%q: the version after @ must be a positive integer", text)
	}
	return Ref{Name: name, Version: n}, nil
}

// Checksum is the SHA-256 of an artifact, in hex.
func Checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// CheckpointDue is the rule by which a run stores a checkpoint after
// epoch: every `every` epochs when every is above 0, else at every epoch
// whose selection loss is the lowest so far (best); never at epoch last,
// the final one, whose model the run stores as its result at once.
func CheckpointDue(every, epoch, last int, best bool) bool {
	due := every == 0 && best || every > 0 && epoch%every == 0
	return due && epoch != last
}
