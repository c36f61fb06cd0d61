package storage

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"

	"github.com/mallard/mallard/sqlstate"
)

// ChunkWriter writes whole columns of Arrow arrays into a table function's
// output chunk through DuckDB's C API: copying a column's values is far
// cheaper than duckdb-go's DataChunk.SetValue, which boxes every cell and
// converts it by a type switch. It relies on what SetValue relies on too:
// DuckDB hands every call a reset chunk, all rows valid.
//
// duckdb-go (v2.10505.0) has no column-level writer and keeps the chunk's
// handle unexported, so NewChunkWriter reads it by name and type (see
// chunkHandle). This is the one place Mallard reaches into duckdb-go's
// unexported state; storage owns it because storage is the package that
// follows duckdb-go's internals from one version to the next.
type ChunkWriter struct {
	vecs []mapping.Vector // by output column; Ptr nil where the statement does not read it
}

// NewChunkWriter prepares to write the output columns of chunk, cols of
// them. It fails with an internal error if duckdb-go's DataChunk no longer
// has the layout it reads.
func NewChunkWriter(chunk *duckdb.DataChunk, cols int) (*ChunkWriter, error) {
	raw, projection, err := chunkHandle(chunk)
	if err != nil {
		return nil, err
	}
	w := &ChunkWriter{vecs: make([]mapping.Vector, cols)}
	n := int(mapping.DataChunkGetColumnCount(raw))
	for col := range w.vecs {
		i := col
		if projection != nil {
			i = -1
			if col < len(projection) {
				i = projection[col]
			}
		}
		if i >= 0 && i < n {
			w.vecs[col] = mapping.DataChunkGetVector(raw, mapping.IdxT(i))
		}
	}
	return w, nil
}

// chunkHandle returns the C handle of chunk and how duckdb-go maps output
// columns to the chunk's vectors (nil: one to one), as SetValue does.
func chunkHandle(chunk *duckdb.DataChunk) (mapping.DataChunk, []int, error) {
	v := reflect.ValueOf(chunk).Elem()
	h, p := v.FieldByName("chunk"), v.FieldByName("projection")
	if !h.IsValid() || h.Type() != reflect.TypeFor[mapping.DataChunk]() || !p.IsValid() || p.Type() != reflect.TypeFor[[]int]() {
		return mapping.DataChunk{}, nil, sqlstate.New(sqlstate.InternalError,
			"duckdb-go's DataChunk has no fields chunk and projection of the expected types; storage.ChunkWriter must follow its new layout")
	}
	raw := *(*mapping.DataChunk)(unsafe.Pointer(h.UnsafeAddr()))
	projection := *(*[]int)(unsafe.Pointer(p.UnsafeAddr()))
	return raw, projection, nil
}

// Doubles is the first n rows of output column col, a DOUBLE, to be
// written in place; nil if the statement does not read the column.
func (w *ChunkWriter) Doubles(col, n int) []float64 {
	vec := w.vecs[col]
	if vec.Ptr == nil {
		return nil
	}
	return unsafe.Slice((*float64)(mapping.VectorGetData(vec)), n)
}

// SetColumn writes the first n rows of arr, NULLs included, to output
// column col, whose DuckDB type stores its values as arr does: BOOLEAN,
// the integers, FLOAT, DOUBLE, DATE, TIMESTAMP or TIMESTAMPTZ (from
// microseconds) and VARCHAR. It reports false, having written nothing, for
// an array of any other kind; the caller then writes the values through
// DataChunk.SetValue. A column the statement does not read is done at once.
func (w *ChunkWriter) SetColumn(col int, arr arrow.Array, n int) bool {
	vec := w.vecs[col]
	if vec.Ptr == nil {
		return true
	}
	if !setValues(vec, arr, n) {
		return false
	}
	w.SetNulls(col, arr, n)
	return true
}

// SetNulls marks the rows of output column col that are NULL in arr as
// NULL; the others keep the validity they have.
func (w *ChunkWriter) SetNulls(col int, arr arrow.Array, n int) {
	vec := w.vecs[col]
	if vec.Ptr == nil || arr.NullN() == 0 {
		return
	}
	mapping.VectorEnsureValidityWritable(vec)
	mask := unsafe.Slice((*uint64)(mapping.VectorGetValidity(vec)), (n+63)/64)
	for r := range n {
		if arr.IsNull(r) {
			mask[r/64] &^= 1 << (r % 64)
		}
	}
}

// setValues writes the values of the first n rows of arr into vec, whose
// DuckDB type stores them as arr does, and reports whether it knew how.
// The values of NULL rows are written too, or not at all.
func setValues(vec mapping.Vector, arr arrow.Array, n int) bool {
	switch a := arr.(type) {
	case *array.Boolean:
		dst := unsafe.Slice((*bool)(mapping.VectorGetData(vec)), n)
		for r := range dst {
			dst[r] = a.Value(r)
		}
	case *array.Int8:
		copyValues(vec, a.Values()[:n])
	case *array.Int16:
		copyValues(vec, a.Values()[:n])
	case *array.Int32:
		copyValues(vec, a.Values()[:n])
	case *array.Int64:
		copyValues(vec, a.Values()[:n])
	case *array.Uint8:
		copyValues(vec, a.Values()[:n])
	case *array.Uint16:
		copyValues(vec, a.Values()[:n])
	case *array.Uint32:
		copyValues(vec, a.Values()[:n])
	case *array.Uint64:
		copyValues(vec, a.Values()[:n])
	case *array.Float32:
		copyValues(vec, a.Values()[:n])
	case *array.Float64:
		copyValues(vec, a.Values()[:n])
	case *array.Date32: // days since the epoch, as DuckDB's DATE
		copyValues(vec, a.Values()[:n])
	case *array.Timestamp: // microseconds since the epoch, as DuckDB's TIMESTAMP and TIMESTAMPTZ
		if a.DataType().(*arrow.TimestampType).Unit != arrow.Microsecond {
			return false
		}
		copyValues(vec, a.Values()[:n])
	case *array.String:
		setStrings(vec, a, n)
	case *array.LargeString:
		setStrings(vec, a, n)
	case *array.StringView:
		setStrings(vec, a, n)
	default:
		return false
	}
	return true
}

// copyValues copies vals into the start of vec's data.
func copyValues[T any](vec mapping.Vector, vals []T) {
	copy(unsafe.Slice((*T)(mapping.VectorGetData(vec)), len(vals)), vals)
}

// setStrings writes the first n strings of arr into vec; DuckDB copies
// each, so vec does not alias the batch's memory.
func setStrings(vec mapping.Vector, arr interface {
	arrow.Array
	Value(int) string
}, n int) {
	for r := range n {
		if arr.IsValid(r) {
			mapping.VectorAssignStringElement(vec, mapping.IdxT(r), arr.Value(r))
		}
	}
}
