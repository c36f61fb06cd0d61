//go:build duckdb_arrow

package storage

import (
	"context"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/duckdb/duckdb-go/v2/arrowmapping"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// Rows is the streaming result of one execution. Each Next fetches the next
// chunk DuckDB has produced (at most 2,048 rows) and converts it to an Arrow
// record batch; nothing before the current batch is kept.
type Rows struct {
	ctx     context.Context
	stmt    *Stmt
	res     mapping.Result
	opts    arrowmapping.ArrowOptions
	schema  *arrow.Schema
	direct  bool // small chunks are built in Go (see smallChunk)
	cols    []Column
	changed int64
	result  Result
	batch   arrow.RecordBatch
	err     error
	stop    func()
	closed  bool
}

func newRows(ctx context.Context, s *Stmt, res mapping.Result, stop func()) (*Rows, error) {
	r := &Rows{ctx: ctx, stmt: s, res: res, stop: stop}
	r.changed = int64(mapping.RowsChanged(&r.res))
	switch mapping.ResultReturnType(res) {
	case mapping.ResultTypeQueryResult:
		r.result = ResultRows
	case mapping.ResultTypeChangedRows:
		r.result = ResultCount
	default:
		r.result = ResultNone
	}
	if r.result == ResultNone && mapping.ResultStatementType(r.res) == mapping.StatementTypeCreate {
		r.changed = createdRows(r.res)
	}
	if r.changed == 0 {
		r.changed = s.created
	}
	if r.result != ResultRows {
		return r, nil
	}
	r.opts = arrowmapping.ResultGetArrowOptions(&r.res)
	if s.cache.matches(&r.res, s.conn.settingsGen) {
		r.cols, r.schema, r.direct = s.cache.cols, s.cache.schema, s.cache.direct
		return r, nil
	}
	n := int(mapping.ColumnCount(&r.res))
	r.cols = make([]Column, n)
	names := make([]string, n)
	types := make([]mapping.LogicalType, n)
	for i := range n {
		names[i] = mapping.ColumnName(&r.res, mapping.IdxT(i))
		types[i] = mapping.ColumnLogicalType(&r.res, mapping.IdxT(i))
		r.cols[i] = Column{Name: names[i], Type: typeOf(types[i])}
	}
	defer func() {
		for i := range types {
			mapping.DestroyLogicalType(&types[i])
		}
	}()
	schema, ed := arrowmapping.NewArrowSchema(r.opts, types, names)
	if err := errorFromData(ed); err != nil {
		r.Close()
		return nil, err
	}
	r.schema, r.direct = schema, directly(r.cols, schema)
	s.cache.store(r.cols, schema, r.direct, s.conn.settingsGen)
	return r, nil
}

// Result says whether the execution produced rows, a count or nothing.
func (r *Rows) Result() Result { return r.result }

// Columns are the result columns as executed (after parameters were bound).
func (r *Rows) Columns() []Column { return r.cols }

// RowsAffected is the number of rows an INSERT, UPDATE, DELETE or COPY changed.
func (r *Rows) RowsAffected() int64 { return r.changed }

// Next advances to the next batch. It returns false at the end of the
// result or on error; Err tells which.
func (r *Rows) Next() bool {
	r.release()
	if r.closed || r.err != nil || r.result != ResultRows {
		return false
	}
	for {
		chunk := mapping.FetchChunk(r.res)
		if chunk.Ptr == nil {
			if mapping.ResultError(&r.res) != "" {
				r.err = canceled(r.ctx, r.stmt.conn.failure(errorFromResult(&r.res, r.stmt.query)))
			}
			return false
		}
		size := mapping.DataChunkGetSize(chunk)
		if size == 0 {
			mapping.DestroyDataChunk(&chunk)
			continue
		}
		if r.direct && int(size) <= smallChunk {
			r.batch = directBatch(r.schema, chunk, int(size))
			mapping.DestroyDataChunk(&chunk)
			return true
		}
		rec, ed := arrowmapping.DataChunkToArrowArray(r.opts, r.schema, chunk)
		mapping.DestroyDataChunk(&chunk)
		if err := errorFromData(ed); err != nil {
			r.err = err
			return false
		}
		r.batch = rec
		return true
	}
}

// Batch is the current batch, valid until the next call to Next or Close.
func (r *Rows) Batch() arrow.RecordBatch { return r.batch }

// Err is the error that ended the result early, if any.
func (r *Rows) Err() error { return r.err }

func (r *Rows) release() {
	if r.batch != nil {
		r.batch.Release()
		r.batch = nil
	}
}

// Close releases the result; a result not read to its end is abandoned.
// It returns the error that ended the result, if any.
func (r *Rows) Close() error {
	if r.closed {
		return r.err
	}
	r.closed = true
	r.release()
	if r.schema != nil {
		arrowmapping.DestroyArrowOptions(&r.opts)
	}
	mapping.DestroyResult(&r.res)
	r.stop()
	return r.err
}

// createdRows reads the row count DuckDB reports for CREATE TABLE ... AS
// as a one-row "Count" column (the C API's rows-changed is 0 for it).
func createdRows(res mapping.Result) int64 {
	if mapping.ColumnCount(&res) != 1 || mapping.ColumnName(&res, 0) != "Count" ||
		mapping.ColumnType(&res, 0) != mapping.TypeBigInt {
		return 0
	}
	chunk := mapping.FetchChunk(res)
	if chunk.Ptr == nil {
		return 0
	}
	defer mapping.DestroyDataChunk(&chunk)
	if mapping.DataChunkGetSize(chunk) != 1 {
		return 0
	}
	vec := mapping.DataChunkGetVector(chunk, 0)
	return *(*int64)(unsafe.Pointer(mapping.VectorGetData(vec)))
}

// resultCache keeps the columns and Arrow schema of a statement's last
// result, so that executing it again (the common case for prepared
// statements) skips describing the result and building the schema anew.
type resultCache struct {
	cols   []Column
	schema *arrow.Schema
	direct bool   // whether small chunks can be built in Go
	gen    uint64 // the connection's settings generation it was built under
}

// matches reports whether res has the cached shape: same column count and,
// for flat types only (no DECIMAL, nested or ENUM, whose parameters the
// type id alone does not give), the same type ids.
func (c *resultCache) matches(res *mapping.Result, gen uint64) bool {
	if c.schema == nil || c.gen != gen || int(mapping.ColumnCount(res)) != len(c.cols) {
		return false
	}
	for i, col := range c.cols {
		if !flatType(col.Type.ID) || TypeID(mapping.ColumnType(res, mapping.IdxT(i))) != col.Type.ID {
			return false
		}
	}
	return true
}

func (c *resultCache) store(cols []Column, schema *arrow.Schema, direct bool, gen uint64) {
	c.cols, c.schema, c.direct, c.gen = cols, schema, direct, gen
}

func flatType(id TypeID) bool {
	switch id {
	case TypeDecimal, TypeList, TypeArray, TypeStruct, TypeMap, TypeUnion, TypeEnum, TypeInvalid, TypeAny:
		return false
	}
	return true
}
