//go:build duckdb_arrow

package functions

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
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
			s.fn, c.Name, c.Type.PGName(), s.fn).WithHint("Cast it in the source query, for example to text, or leave it out.")
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
// output chunk: storage.ChunkWriter copies the columns whose values DuckDB
// stores as Arrow does, and the others go through SetValue, cell by cell.
type chunkWriter struct {
	chunk duckdb.DataChunk
	cols  *storage.ChunkWriter
}

// newChunkWriter prepares to write the output columns of chunk, cols of them.
func newChunkWriter(chunk duckdb.DataChunk, cols int) (*chunkWriter, error) {
	w, err := storage.NewChunkWriter(&chunk, cols)
	if err != nil {
		return nil, err
	}
	return &chunkWriter{chunk: chunk, cols: w}, nil
}

// doubles is the first n rows of output column col, a DOUBLE, to be
// written in place; nil if the statement does not read the column.
func (w *chunkWriter) doubles(col, n int) []float64 { return w.cols.Doubles(col, n) }

// setColumn writes the first n rows of arr, NULLs included, to output
// column col, whose type is the one passThrough gives arr's column.
func (w *chunkWriter) setColumn(col int, arr arrow.Array, n int) error {
	if w.cols.SetColumn(col, arr, n) {
		return nil
	}
	for r := range n {
		if err := w.chunk.SetValue(col, r, valueAt(arr, r)); err != nil {
			return err
		}
	}
	return nil
}

// setNulls marks the rows of output column col that are NULL in arr as
// NULL; the others keep the validity they have.
func (w *chunkWriter) setNulls(col int, arr arrow.Array, n int) { w.cols.SetNulls(col, arr, n) }
