//go:build duckdb_arrow

package registry

import (
	"context"
	"fmt"
	"time"
)

// Unfinished lists the training runs that are queued or training, for a
// server about to stop them (see Interrupted).
func (r *Registry) Unfinished(ctx context.Context) ([]int64, error) {
	ids, err := r.store.Unfinished(ctx)
	if err != nil {
		return nil, fmt.Errorf("list unfinished training runs: %w", err)
	}
	return ids, nil
}

// Interrupted records the runs ids, which the server's shutdown stopped
// (they ended canceled, or had not ended yet), and their model versions
// as interrupted, as a restart records the runs a killed server left
// unfinished: a version keeps its last checkpoint, and
// train_gat(..., resume := 'name') or train_recommender(..., resume :=
// 'name') goes on from it. It is called once the
// runs' statements are canceled, and first waits, until ctx ends, for
// each run to record its end: a training goroutine may outlive its
// session by the time it takes to notice and write, and must not write
// after this or while the database closes. Runs among ids that ended
// otherwise (succeeded or failed) keep their status.
func (r *Registry) Interrupted(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	r.awaitEnds(ctx, ids)
	ctx = context.WithoutCancel(ctx)
	if err := r.tx(ctx, func(tx Tx) error { return tx.MarkInterrupted(ctx, ids) }); err != nil {
		return fmt.Errorf("record interrupted training runs: %w", err)
	}
	return nil
}

// awaitEnds waits until none of the runs ids is queued or training, or
// ctx ends. An error reading them ends the wait: the update that follows
// meets it again and reports it.
func (r *Registry) awaitEnds(ctx context.Context, ids []int64) {
	for {
		left, err := r.store.Unended(ctx, ids)
		if err != nil || left == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(endPoll):
		}
	}
}

// endPoll is how often awaitEnds looks whether the runs have recorded their end.
const endPoll = 20 * time.Millisecond
