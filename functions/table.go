//go:build duckdb_arrow

package functions

import (
	"context"
	"runtime"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/storage"
)

// table is a table function's output: its columns, and open, which starts
// one execution. A prepared statement binds once and may run many times;
// each run gets its own state from open.
type table struct {
	cols   []duckdb.ColumnInfo
	open   func(ctx context.Context) (*run, error)
	caller storage.Caller

	mu      sync.Mutex // fill runs on one DuckDB thread; finish may come from the statement's end
	started bool
	cur     *run
}

// run is one execution of a table function: fill writes the next rows into
// a chunk and returns how many (0 at the end). close, if set, releases what
// fill holds: at the end, on error, when the calling statement ends, or at
// the latest when the run is garbage collected.
type run struct {
	fill  func(chunk duckdb.DataChunk) (int, error)
	close func()
	done  bool
	stop  func() bool
}

func (t *table) ColumnInfos() []duckdb.ColumnInfo     { return t.cols }
func (t *table) Cardinality() *duckdb.CardinalityInfo { return nil }

// Init prepares the next execution.
func (t *table) Init() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil {
		t.cur.finish()
	}
	t.cur, t.started = nil, false
}

func (t *table) FillChunk(chunk duckdb.DataChunk) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		t.started = true
		if err := t.start(); err != nil {
			return t.caller.Fail(err)
		}
	}
	r := t.cur
	n := 0
	if !r.done {
		var err error
		if n, err = r.fill(chunk); err != nil {
			r.finish()
			return t.caller.Fail(err)
		}
	}
	if n == 0 {
		r.finish()
	}
	return chunk.SetSize(n)
}

func (t *table) start() error {
	ctx := t.caller.Context()
	r, err := t.open(ctx)
	if err != nil {
		return err
	}
	t.cur = r
	if r.close != nil {
		// A canceled statement reports its cancel once close has run (a
		// training run has ended canceled), not while it still runs.
		release := t.caller.Hold()
		close := r.close
		r.close = sync.OnceFunc(func() {
			defer release()
			close()
		})
		runtime.AddCleanup(r, func(f func()) { f() }, r.close)
		r.stop = context.AfterFunc(ctx, func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			r.finish()
		})
	}
	return nil
}

func (r *run) finish() {
	if r.done {
		return
	}
	r.done = true
	if r.stop != nil {
		r.stop()
	}
	if r.close != nil {
		r.close()
	}
}
