package sqlfront

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

// prepared is a parsed statement: one of a simple Query, or one named or
// unnamed by Parse.
type prepared struct {
	plan plan.Statement
	// stmt is nil for what the front end runs itself: empty statements,
	// transaction control, savepoints and COPY FROM STDIN / TO STDOUT.
	stmt Stmt
	// copy is set for COPY FROM STDIN / TO STDOUT.
	copy *plan.Copy
	// synth is set for statements about Postgres parameters.
	synth *synthetic
	// declared is the query of DECLARE CURSOR.
	declared *prepared
	// enc is the row encoder of the last execution, for encCols in
	// encFormats (see encoder).
	enc        *pgcodec.RowEncoder
	encCols    []sqltype.Column
	encFormats []int16
	// paramOIDs has one OID per parameter: the client's where it gave one,
	// else the type DuckDB inferred.
	paramOIDs []uint32
}

func (p *prepared) close() {
	if p.stmt != nil {
		p.stmt.Close()
	}
	if p.declared != nil {
		p.declared.close()
	}
}

// returnsRows reports whether executing p sends rows, judged before it runs.
func (p *prepared) returnsRows() bool {
	if p.synth != nil {
		return p.synth.cols != nil
	}
	if p.copy != nil || p.stmt == nil {
		return false
	}
	return p.stmt.Result() == sqltype.ResultRows && rowsAllowed(p.plan)
}

// columnCount is the number of result columns of a statement that returns
// rows and whose columns are known (see columnsKnown).
func (p *prepared) columnCount() int {
	if p.synth != nil {
		return len(p.synth.cols)
	}
	return len(p.stmt.Columns())
}

// columnsKnown reports whether the result columns of a statement that
// returns rows are known before it runs. They are not when they depend on
// the values of its parameters: a Mallard function given a parameter as an
// argument is bound by DuckDB only once the values are.
func (p *prepared) columnsKnown() bool {
	return p.synth != nil || p.stmt != nil && len(p.stmt.Columns()) > 0
}

// rowsAllowed reports whether a statement of this kind may send rows: a
// utility statement that DuckDB answers with a status row (CHECKPOINT) does
// not, as in Postgres.
func rowsAllowed(st plan.Statement) bool {
	switch st.Kind {
	case plan.KindQuery, plan.KindOther:
		return true
	case plan.KindInsert, plan.KindUpdate, plan.KindDelete, plan.KindMerge:
		return true
	}
	return false
}

// portal is a bound statement and, once executed, its open result.
type portal struct {
	prep    *prepared
	args    []any
	formats []int16 // per result column, as Bind asked

	ctx    context.Context // lives as long as the result is open
	cancel context.CancelCauseFunc
	rows   Rows
	cols   []sqltype.Column
	enc    *pgcodec.RowEncoder // nil when the statement returns no rows
	bound  pgcodec.BoundRows   // enc bound to batch
	batch  arrow.RecordBatch   // the current batch, retained
	row    int                 // next row of batch to send
	held   []arrow.RecordBatch
	done   bool
	// heldBytes is the memory of held, reservedBytes what releases hold
	// of the memory budget for it (see hold).
	heldBytes, reservedBytes int64
	releases                 []func()
	// progressive marks a statement that calls a function whose rows
	// report progress: its rows and notices go out as they come.
	progressive bool
	// cursor marks an SQL cursor (DECLARE), which owns its prepared
	// statement; withHold marks one declared WITH HOLD, which outlives its
	// transaction.
	cursor, withHold bool
	closed           bool
}

// next returns the batch holding the next row to send, or nil at the end.
func (p *portal) next() (arrow.RecordBatch, error) {
	for p.batch == nil || p.row >= int(p.batch.NumRows()) {
		p.releaseBatch()
		switch {
		case len(p.held) > 0:
			p.batch, p.held = p.held[0], p.held[1:]
		case p.rows != nil && p.rows.Next():
			p.batch = p.rows.Batch()
			p.batch.Retain()
		default:
			if p.rows != nil {
				return nil, p.rows.Err()
			}
			return nil, nil
		}
		p.row = 0
	}
	return p.batch, nil
}

func (p *portal) releaseBatch() {
	if p.batch != nil {
		p.batch.Release()
		p.batch = nil
	}
}

// hold reads the rest of the result into memory and frees the DuckDB
// connection, so that another statement can run while this portal stays
// suspended. DuckDB allows one open streaming result per connection;
// Postgres allows many open portals.
//
// What it holds is reserved from the server's memory budget as it grows,
// holdStep at a time, which takes as much from what DuckDB may use: the
// rows held and DuckDB together stay within the memory limit. When the
// next step does not fit, hold fails with 53200 having freed what it read,
// and the portal is done; its transaction fails with the statement that
// needed the connection.
func (p *portal) hold(ctx context.Context, budget Engine) error {
	if p.rows == nil {
		return nil
	}
	var err error
	for err == nil && p.rows.Next() {
		b := p.rows.Batch()
		n := batchBytes(b)
		if p.heldBytes+n > p.reservedBytes {
			err = p.reserve(ctx, budget, max(holdStep, p.heldBytes+n-p.reservedBytes))
		}
		if err == nil {
			b.Retain()
			p.held = append(p.held, b)
			p.heldBytes += n
		}
	}
	if cerr := p.rows.Close(); err == nil {
		err = cerr
	}
	p.rows = nil
	if err != nil {
		p.dropHeld()
		p.done = true
	}
	return err
}

// holdStep is how many bytes a suspended portal's rows take from the
// memory budget at a time (see hold).
const holdStep = 32 << 20

func (p *portal) reserve(ctx context.Context, budget Engine, n int64) error {
	release, err := budget.Reserve(ctx, n, fmt.Sprintf("the rows of a suspended portal read into memory so that another statement can run (%s so far)",
		mib(p.heldBytes)))
	if err != nil {
		return err
	}
	p.releases = append(p.releases, release)
	p.reservedBytes += n
	return nil
}

// dropHeld releases the batches hold read and their reservations; where
// they were large, the Go runtime returns their memory to the system at
// once rather than keeping it for reuse.
func (p *portal) dropHeld() {
	for _, b := range p.held {
		b.Release()
	}
	p.held = nil
	for _, release := range p.releases {
		release()
	}
	p.releases = nil
	if p.reservedBytes >= freeOSAfter {
		debug.FreeOSMemory()
	}
	p.heldBytes, p.reservedBytes = 0, 0
}

// freeOSAfter is the size of a freed buffer past which the process hands
// the memory back to the system at once (see dropHeld).
const freeOSAfter = 64 << 20

// batchBytes is the memory b's buffers hold, children included.
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, col := range b.Columns() {
		n += dataBytes(col.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Cap())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}

// mib writes n in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// close releases the result and the batches the portal holds.
func (p *portal) close() {
	if p.closed {
		return
	}
	p.closed = true
	p.releaseBatch()
	p.dropHeld()
	if p.rows != nil {
		p.rows.Close()
		p.rows = nil
	}
	if p.cancel != nil {
		p.cancel(nil)
	}
	if p.cursor {
		p.prep.close()
	}
}
