package memengine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// column builds the Arrow array of col's values: the constants of a
// query, or the values sqlfront decoded from Bind (nil, an integer or a
// string, see pgcodec.DecodeParam), cast to col's type as DuckDB casts a
// parameter.
func column(col sqltype.Column, values []any) (arrow.Field, arrow.Array, error) {
	switch col.Type.ID {
	case sqltype.Integer:
		b := array.NewInt32Builder(memory.DefaultAllocator)
		defer b.Release()
		err := appendEach(values, func(v any) error {
			n, err := toInt(v, math.MinInt32, math.MaxInt32, "INTEGER")
			b.Append(int32(n))
			return err
		}, b.AppendNull)
		return arrow.Field{Name: col.Name, Type: arrow.PrimitiveTypes.Int32, Nullable: true}, b.NewArray(), err
	case sqltype.BigInt:
		b := array.NewInt64Builder(memory.DefaultAllocator)
		defer b.Release()
		err := appendEach(values, func(v any) error {
			n, err := toInt(v, math.MinInt64, math.MaxInt64, "BIGINT")
			b.Append(n)
			return err
		}, b.AppendNull)
		return arrow.Field{Name: col.Name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}, b.NewArray(), err
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	appendEach(values, func(v any) error { b.Append(fmt.Sprint(v)); return nil }, b.AppendNull)
	return arrow.Field{Name: col.Name, Type: arrow.BinaryTypes.String, Nullable: true}, b.NewArray(), nil
}

// appendEach appends every value with add, and each nil with null; it
// stops at add's first error.
func appendEach(values []any, add func(any) error, null func()) error {
	for _, v := range values {
		if v == nil {
			null()
			continue
		}
		if err := add(v); err != nil {
			return err
		}
	}
	return nil
}

// toInt converts an integer or the text of one to an integer in
// [lo, hi], failing with 22P02 or 22003 as a cast to typ does.
func toInt(v any, lo, hi int64, typ string) (int64, error) {
	var n int64
	switch v := v.(type) {
	case int16:
		n = int64(v)
	case int32:
		n = int64(v)
	case int64:
		n = v
	case string:
		var err error
		if n, err = strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
			return 0, sqlstate.New(sqlstate.InvalidTextRepresentation, "invalid input syntax for type %s: %q", strings.ToLower(typ), v)
		}
	default:
		return 0, sqlstate.New(sqlstate.DatatypeMismatch, "cannot cast %T to %s", v, typ)
	}
	if n < lo || n > hi {
		return 0, sqlstate.New(sqlstate.NumericValueOutOfRange, "value %d is out of range for type %s", n, typ)
	}
	return n, nil
}
