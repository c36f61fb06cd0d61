//go:build duckdb_arrow

package functions

import (
	"context"
	"math"
	"runtime/debug"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// streamed is what a training goroutine hands fill: a row, or the end.
type streamed struct {
	row []any
	err error
}

// stream runs train on a goroutine of its own and writes each row it
// emits, one per chunk, so that the rows (an epoch's progress) reach the
// client while training goes on: each once the next is emitted or train
// returns, as DuckDB asks for a table function's next chunk before it
// hands over the last (the NOTICEs train sends are not held back). When train
// returns, the run finishes with its result or fails with its error (see
// registry.Training); when the statement ends first, train's context is
// canceled and the run ends canceled.
func stream(c *call, fn string, t *registry.Training, train func(ctx context.Context, emit func(row ...any) error) (*registry.Result, error)) *run {
	ctx, cancel := context.WithCancelCause(t.Context())
	out := make(chan streamed)
	// stop closes when the statement ends: after it nobody reads out.
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		res, err := train(ctx, func(row ...any) error {
			select {
			case out <- streamed{row: row}:
				return nil
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		})
		var note string
		if err == nil {
			note = t.Finish(res)
		} else {
			note = t.Fail(err)
		}
		if note != "" {
			c.caller.Notice(fn + ": " + note)
		}
		// The stored artifact and the training state are garbage now: at
		// MovieLens-25M scale hundreds of megabytes the heap would keep.
		res = nil
		debug.FreeOSMemory()
		select {
		case out <- streamed{err: err}:
		case <-stop:
		}
	}()
	return &run{
		fill: func(chunk duckdb.DataChunk) (int, error) {
			d := <-out
			if d.row == nil {
				return 0, d.err
			}
			for i, v := range d.row {
				if err := chunk.SetValue(i, 0, v); err != nil {
					return 0, err
				}
			}
			return 1, nil
		},
		close: func() {
			cancel(sqlstate.New(sqlstate.QueryCanceled, "%s: the statement ended before training did", fn))
			close(stop)
			<-done
		},
	}
}

// diverged is the error of training function fn whose training loss
// measure is v at epoch, not finite; nil while it is. The training
// functions check it before they record an epoch, and add their hint.
func diverged(fn, measure string, v float64, epoch int) *sqlstate.Error {
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		return nil
	}
	return sqlstate.New(sqlstate.DataException, "%s: training diverged: %s is %v at epoch %d", fn, measure, v, epoch)
}
