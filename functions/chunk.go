//go:build duckdb_arrow

package functions

import (
	"github.com/apache/arrow-go/v18/arrow"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/prep"
)

// passThrough is how a source column is read so that it can be written
// out: the select-list expression and the output type (see
// prep.Source.PassThrough).
func (s *source) passThrough(i int) (expr string, t duckdb.TypeInfo, err error) {
	return s.prep().PassThrough(i)
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
// vector of the matching type; nil for NULL (see prep.ValueAt).
func valueAt(arr arrow.Array, i int) any { return prep.ValueAt(arr, i) }

// floats returns the values of a DOUBLE column and whether each is valid.
func floats(arr arrow.Array) (vals []float64, valid func(int) bool) { return prep.Floats(arr) }

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
