//go:build duckdb_arrow

package registry

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Unfinished lists the training runs that are queued or training, for a
// server about to stop them (see Interrupted).
func (r *Registry) Unfinished(ctx context.Context) ([]int64, error) {
	rows, err := r.db.SQL().QueryContext(ctx, "SELECT run_id FROM mlops.training_runs WHERE status IN ('queued', 'training') ORDER BY run_id")
	if err != nil {
		return nil, fmt.Errorf("list unfinished training runs: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
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
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = strconv.FormatInt(id, 10)
	}
	in := "(" + strings.Join(list, ", ") + ")"
	r.awaitEnds(ctx, in)
	r.mu.Lock()
	defer r.mu.Unlock()
	tx, err := r.db.SQL().BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return fmt.Errorf("record interrupted training runs: %w", err)
	}
	err = execAll(context.WithoutCancel(ctx), tx,
		`UPDATE mlops.training_runs SET status = 'interrupted', finished_at = coalesce(finished_at, current_timestamp),
			error = 'the server shut down before the run finished' WHERE status IN ('queued', 'training', 'canceled') AND run_id IN `+in,
		`UPDATE mlops.models SET status = 'interrupted', finished_at = coalesce(finished_at, current_timestamp)
			WHERE status IN ('training', 'canceled') AND run_id IN `+in)
	if err == nil {
		err = tx.Commit()
	} else {
		_ = tx.Rollback()
	}
	if err != nil {
		return fmt.Errorf("record interrupted training runs: %w", err)
	}
	return nil
}

// awaitEnds waits until none of the runs in (a parenthesised list of
// ids) is queued or training, or ctx ends. An error reading them ends
// the wait: the update that follows meets it again and reports it.
func (r *Registry) awaitEnds(ctx context.Context, in string) {
	for {
		var left int
		err := r.db.SQL().QueryRowContext(ctx, "SELECT count(*) FROM mlops.training_runs WHERE status IN ('queued', 'training') AND run_id IN "+in).Scan(&left)
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

// execAll runs each statement in tx, stopping at the first error.
func execAll(ctx context.Context, tx *sql.Tx, stmts ...string) error {
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
