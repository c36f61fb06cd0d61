package training

import (
	"context"

	"github.com/mallard/mallard/sqlstate"
)

// Rows are the rows of a training statement, one per epoch, produced
// while the model trains on a goroutine that Rows owns: Next returns each
// once it is handed on, and Close stops the run and waits for that
// goroutine.
type Rows struct {
	out    chan streamed
	stop   chan struct{} // closed by Close: after it nobody reads out
	done   chan struct{} // closed when the training goroutine returns
	cancel context.CancelCauseFunc
	fn     string
}

// streamed is what the training goroutine hands Next: a row, or the end.
type streamed struct {
	row []any
	err error
}

// stream starts the training goroutine of a registered run.
func (j Job) stream(rec Record, spec Spec, m Model, mem *Memory) *Rows {
	ctx, cancel := context.WithCancelCause(rec.Context())
	rows := &Rows{out: make(chan streamed), stop: make(chan struct{}), done: make(chan struct{}), cancel: cancel, fn: j.Fn}
	run := &Run{job: j, rec: rec, spec: spec, model: m, ctx: ctx, rows: rows}
	go func() {
		defer close(rows.done)
		run.train(mem)
	}()
	return rows
}

// Next waits for the next row: nil and the run's error (nil when it
// succeeded) at the end, after the run has ended in the registry. It is
// not to be called again after the end.
func (r *Rows) Next() ([]any, error) {
	d := <-r.out
	return d.row, d.err
}

// Close stops the run if it is still training, which then ends canceled
// (57014, "the statement ended before training did"), and returns once
// its goroutine has. It is to be called once.
func (r *Rows) Close() {
	r.cancel(sqlstate.New(sqlstate.QueryCanceled, "%s: the statement ended before training did", r.fn))
	close(r.stop)
	<-r.done
}

// emit hands row to Next, or fails with ctx's cause if ctx ends first.
func (r *Rows) emit(ctx context.Context, row []any) error {
	select {
	case r.out <- streamed{row: row}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// end hands Next the end, unless Close came first.
func (r *Rows) end(err error) {
	select {
	case r.out <- streamed{err: err}:
	case <-r.stop:
	}
}
