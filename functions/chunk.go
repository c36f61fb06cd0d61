//go:build duckdb_arrow

package functions

import (
	"reflect"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// passTypes are the DuckDB types a function can pass from its input to its
// output unchanged, and their duckdb-go names. Other types are refused with
// a hint to cast; DECIMAL and HUGEINT are read as DOUBLE (see passThrough).
var passTypes = map[storage.TypeID]duckdb.Type{
	storage.TypeBoolean: duckdb.TYPE_BOOLEAN, storage.TypeTinyInt: duckdb.TYPE_TINYINT,
	storage.TypeSmallInt: duckdb.TYPE_SMALLINT, storage.TypeInteger: duckdb.TYPE_INTEGER,
	storage.TypeBigInt: duckdb.TYPE_BIGINT, storage.TypeUTinyInt: duckdb.TYPE_UTINYINT,
	storage.TypeUSmallInt: duckdb.TYPE_USMALLINT, storage.TypeUInteger: duckdb.TYPE_UINTEGER,
	storage.TypeUBigInt: duckdb.TYPE_UBIGINT, storage.TypeFloat: duckdb.TYPE_FLOAT,
	storage.TypeDouble: duckdb.TYPE_DOUBLE, storage.TypeVarchar: duckdb.TYPE_VARCHAR,
	storage.TypeDate: duckdb.TYPE_DATE, storage.TypeTimestamp: duckdb.TYPE_TIMESTAMP,
	storage.TypeTimestampTZ: duckdb.TYPE_TIMESTAMP_TZ,
}

// passThrough is how a source column is read so that it can be written
// out: the select-list expression and the output type.
func (s *source) passThrough(i int) (expr string, t duckdb.TypeInfo, err error) {
	c := s.cols[i]
	id := c.Type.ID
	expr = ident(c.Name)
	switch id {
	case storage.TypeDecimal, storage.TypeHugeInt, storage.TypeUHugeInt:
		expr, id = "CAST("+expr+" AS DOUBLE) AS "+expr, storage.TypeDouble
	case storage.TypeTimestampS, storage.TypeTimestampMS, storage.TypeTimestampNS:
		expr, id = "CAST("+expr+" AS TIMESTAMP) AS "+expr, storage.TypeTimestamp
	}
	dt, ok := passTypes[id]
	if !ok {
		return "", nil, sqlstate.New(sqlstate.FeatureNotSupported, "%s: column %s has type %s, which %s cannot pass through",
			s.fn, c.Name, c.Type, s.fn).WithHint("Cast it in the source query, for example to VARCHAR, or leave it out.")
	}
	t, err = duckdb.NewTypeInfo(dt)
	return expr, t, err
}

func doubleType() duckdb.TypeInfo  { return typeInfo(duckdb.TYPE_DOUBLE) }
func bigintType() duckdb.TypeInfo  { return typeInfo(duckdb.TYPE_BIGINT) }
func boolType() duckdb.TypeInfo    { return typeInfo(duckdb.TYPE_BOOLEAN) }
func varcharType() duckdb.TypeInfo { return typeInfo(duckdb.TYPE_VARCHAR) }

// typeInfo is duckdb-go's description of a primitive type t.
func typeInfo(t duckdb.Type) duckdb.TypeInfo {
	info, _ := duckdb.NewTypeInfo(t)
	return info
}

// valueAt is element i of arr as the Go value duckdb-go writes into a
// vector of the matching type; nil for NULL.
func valueAt(arr arrow.Array, i int) any {
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return a.Value(i)
	case *array.Int16:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return a.Value(i)
	case *array.Uint16:
		return a.Value(i)
	case *array.Uint32:
		return a.Value(i)
	case *array.Uint64:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.String: // Value aliases the batch's memory, which is reused
		return strings.Clone(a.Value(i))
	case *array.LargeString:
		return strings.Clone(a.Value(i))
	case *array.StringView:
		return strings.Clone(a.Value(i))
	case *array.Date32:
		return a.Value(i).ToTime()
	case *array.Timestamp:
		return a.Value(i).ToTime(a.DataType().(*arrow.TimestampType).Unit)
	}
	return arr.ValueStr(i)
}

// floats returns the values of a DOUBLE column and whether each is valid.
func floats(arr arrow.Array) (vals []float64, valid func(int) bool) {
	a := arr.(*array.Float64)
	return a.Float64Values(), a.IsValid
}

// chunkWriter writes whole columns of Arrow arrays into a table function's
// output chunk through DuckDB's C API: copying a column's values is far
// cheaper than duckdb-go's DataChunk.SetValue, which boxes every cell and
// converts it by a type switch. duckdb-go (v2.10505.0) has no column-level
// writer and keeps the chunk's handle unexported, so chunkWriter reads it
// by name and type (see chunkHandle). It relies on what SetValue relies on
// too: DuckDB hands every call a reset chunk, all rows valid.
type chunkWriter struct {
	chunk duckdb.DataChunk
	vecs  []mapping.Vector // by output column; Ptr nil where the statement does not read it
}

// newChunkWriter prepares to write the output columns of chunk, cols of them.
func newChunkWriter(chunk duckdb.DataChunk, cols int) (*chunkWriter, error) {
	raw, projection, err := chunkHandle(&chunk)
	if err != nil {
		return nil, err
	}
	w := &chunkWriter{chunk: chunk, vecs: make([]mapping.Vector, cols)}
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
			"duckdb-go's DataChunk has no fields chunk and projection of the expected types; chunkWriter must follow its new layout")
	}
	raw := *(*mapping.DataChunk)(unsafe.Pointer(h.UnsafeAddr()))
	projection := *(*[]int)(unsafe.Pointer(p.UnsafeAddr()))
	return raw, projection, nil
}

// doubles is the first n rows of output column col, a DOUBLE, to be
// written in place; nil if the statement does not read the column.
func (w *chunkWriter) doubles(col, n int) []float64 {
	vec := w.vecs[col]
	if vec.Ptr == nil {
		return nil
	}
	return unsafe.Slice((*float64)(mapping.VectorGetData(vec)), n)
}

// setColumn writes the first n rows of arr, NULLs included, to output
// column col, whose type is the one passThrough gives arr's column.
func (w *chunkWriter) setColumn(col int, arr arrow.Array, n int) error {
	vec := w.vecs[col]
	if vec.Ptr == nil {
		return nil
	}
	if !setValues(vec, arr, n) {
		for r := range n {
			if err := w.chunk.SetValue(col, r, valueAt(arr, r)); err != nil {
				return err
			}
		}
		return nil
	}
	w.setNulls(col, arr, n)
	return nil
}

// setNulls marks the rows of output column col that are NULL in arr as
// NULL; the others keep the validity they have.
func (w *chunkWriter) setNulls(col int, arr arrow.Array, n int) {
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
