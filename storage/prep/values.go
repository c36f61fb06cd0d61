//go:build duckdb_arrow

package prep

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// Quote is s as a SQL string literal, for Mallard's messages and queries.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// passTypes are the DuckDB types a function can pass from its input to its
// output unchanged, and their duckdb-go names. Other types are refused with
// a hint to cast; DECIMAL and HUGEINT are read as DOUBLE (see PassThrough).
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

// PassThrough is how source column i is read so that it can be written
// out: the select-list expression and the output type.
func (s *Source) PassThrough(i int) (expr string, t duckdb.TypeInfo, err error) {
	c := s.Cols[i]
	id := c.Type.ID
	expr = Ident(c.Name)
	switch id {
	case storage.TypeDecimal, storage.TypeHugeInt, storage.TypeUHugeInt:
		expr, id = "CAST("+expr+" AS DOUBLE) AS "+expr, storage.TypeDouble
	case storage.TypeTimestampS, storage.TypeTimestampMS, storage.TypeTimestampNS:
		expr, id = "CAST("+expr+" AS TIMESTAMP) AS "+expr, storage.TypeTimestamp
	}
	dt, ok := passTypes[id]
	if !ok {
		return "", nil, sqlstate.New(sqlstate.FeatureNotSupported, "%s: column %s has type %s, which %s cannot pass through",
			s.Fn, c.Name, c.Type.PGName(), s.Fn).WithHint("Cast it in the source query, for example to text, or leave it out.")
	}
	t, err = duckdb.NewTypeInfo(dt)
	return expr, t, err
}

// doubleType is duckdb-go's description of DOUBLE.
func doubleType() duckdb.TypeInfo {
	info, _ := duckdb.NewTypeInfo(duckdb.TYPE_DOUBLE)
	return info
}

// ValueAt is element i of arr as the Go value duckdb-go writes into a
// vector of the matching type; nil for NULL.
func ValueAt(arr arrow.Array, i int) any {
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

// Floats returns the values of a DOUBLE column and whether each is valid.
func Floats(arr arrow.Array) (vals []float64, valid func(int) bool) {
	a := arr.(*array.Float64)
	return a.Float64Values(), a.IsValid
}
