package pgcodec_test

import (
	"encoding/hex"
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

// This file builds Arrow arrays shaped exactly as DuckDB 1.5 hands them to
// Mallard, and DuckDB types to go with them.

// valuesBuilder is an Arrow builder with AppendValues.
type valuesBuilder[T any] interface {
	array.Builder
	AppendValues(v []T, valid []bool)
}

// build returns an array of vs made with b; valid marks NULLs as false and
// may be nil.
func build[T any](b valuesBuilder[T], vs []T, valid []bool) arrow.Array {
	defer b.Release()
	b.AppendValues(vs, valid)
	return b.NewArray()
}

func mem() memory.Allocator { return memory.DefaultAllocator }

func boolArr(v ...bool) arrow.Array  { return build(array.NewBooleanBuilder(mem()), v, nil) }
func i8Arr(v ...int8) arrow.Array    { return build(array.NewInt8Builder(mem()), v, nil) }
func i16Arr(v ...int16) arrow.Array  { return build(array.NewInt16Builder(mem()), v, nil) }
func i32Arr(v ...int32) arrow.Array  { return build(array.NewInt32Builder(mem()), v, nil) }
func i64Arr(v ...int64) arrow.Array  { return build(array.NewInt64Builder(mem()), v, nil) }
func u8Arr(v ...uint8) arrow.Array   { return build(array.NewUint8Builder(mem()), v, nil) }
func u16Arr(v ...uint16) arrow.Array { return build(array.NewUint16Builder(mem()), v, nil) }
func u32Arr(v ...uint32) arrow.Array { return build(array.NewUint32Builder(mem()), v, nil) }
func u64Arr(v ...uint64) arrow.Array { return build(array.NewUint64Builder(mem()), v, nil) }
func f32Arr(v ...float32) arrow.Array {
	return build(array.NewFloat32Builder(mem()), v, nil)
}
func f64Arr(v ...float64) arrow.Array {
	return build(array.NewFloat64Builder(mem()), v, nil)
}
func strArr(v ...string) arrow.Array { return build(array.NewStringBuilder(mem()), v, nil) }

// strArrN is strArr with NULLs where valid is false.
func strArrN(v []string, valid []bool) arrow.Array {
	return build(array.NewStringBuilder(mem()), v, valid)
}

func i32ArrN(v []int32, valid []bool) arrow.Array {
	return build(array.NewInt32Builder(mem()), v, valid)
}

// binArr builds a binary array from hex strings.
func binArr(hexes ...string) arrow.Array {
	vs := make([][]byte, len(hexes))
	for k, h := range hexes {
		vs[k] = mustHex(h)
	}
	return build(array.NewBinaryBuilder(mem(), arrow.BinaryTypes.Binary), vs, nil)
}

// fsbArr builds a fixed_size_binary array from hex strings of equal length.
func fsbArr(hexes ...string) arrow.Array {
	vs := make([][]byte, len(hexes))
	for k, h := range hexes {
		vs[k] = mustHex(h)
	}
	dt := &arrow.FixedSizeBinaryType{ByteWidth: len(vs[0])}
	return build(array.NewFixedSizeBinaryBuilder(mem(), dt), vs, nil)
}

func dateArr(days ...int32) arrow.Array {
	vs := make([]arrow.Date32, len(days))
	for k, d := range days {
		vs[k] = arrow.Date32(d)
	}
	return build(array.NewDate32Builder(mem()), vs, nil)
}

func timeArr(us ...int64) arrow.Array {
	vs := make([]arrow.Time64, len(us))
	for k, u := range us {
		vs[k] = arrow.Time64(u)
	}
	return build(array.NewTime64Builder(mem(), arrow.FixedWidthTypes.Time64us.(*arrow.Time64Type)), vs, nil)
}

// tsArr builds a timestamp array in unit; tz is "" or DuckDB's "Etc/UTC".
func tsArr(unit arrow.TimeUnit, tz string, v ...int64) arrow.Array {
	vs := make([]arrow.Timestamp, len(v))
	for k, x := range v {
		vs[k] = arrow.Timestamp(x)
	}
	dt := &arrow.TimestampType{Unit: unit, TimeZone: tz}
	return build(array.NewTimestampBuilder(mem(), dt), vs, nil)
}

func intervalArr(months, days int32, micros int64) arrow.Array {
	v := arrow.MonthDayNanoInterval{Months: months, Days: days, Nanoseconds: micros * 1000}
	return build(array.NewMonthDayNanoIntervalBuilder(mem()), []arrow.MonthDayNanoInterval{v}, nil)
}

// decArr builds a decimal128(p, s) array of unscaled values given in
// decimal, any 128-bit two's-complement pattern allowed.
func decArr(p, s int32, unscaled ...string) arrow.Array {
	vs := make([]decimal128.Num, len(unscaled))
	for k, u := range unscaled {
		n, ok := new(big.Int).SetString(u, 10)
		if !ok {
			panic("bad decimal " + u)
		}
		if n.Sign() < 0 {
			n.Add(n, new(big.Int).Lsh(big.NewInt(1), 128))
		}
		hi := new(big.Int).Rsh(n, 64).Uint64()
		lo := new(big.Int).And(n, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		vs[k] = decimal128.New(int64(hi), lo)
	}
	dt := &arrow.Decimal128Type{Precision: p, Scale: s}
	return build(array.NewDecimal128Builder(mem(), dt), vs, nil)
}

// enumArr builds DuckDB's ENUM: a dictionary of strings with uint8 indices.
func enumArr(dict []string, idx ...uint8) arrow.Array {
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.String}
	return array.NewDictionaryArray(dt, u8Arr(idx...), strArr(dict...))
}

// listArr builds a list array of len(lens) lists over child, list k
// holding the next lens[k] children; a negative length makes a NULL list.
func listArr(child arrow.Array, lens ...int) arrow.Array {
	offsets := []int32{0}
	valid := make([]bool, len(lens))
	for k, n := range lens {
		valid[k] = n >= 0
		offsets = append(offsets, offsets[k]+int32(max(n, 0)))
	}
	nulls, bitmap := validity(valid)
	data := array.NewData(arrow.ListOf(child.DataType()), len(lens),
		[]*memory.Buffer{bitmap, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))},
		[]arrow.ArrayData{child.Data()}, nulls, 0)
	return array.MakeFromData(data)
}

// validity returns the null count and validity bitmap of valid.
func validity(valid []bool) (int, *memory.Buffer) {
	bitmap := make([]byte, bitutil.BytesForBits(int64(len(valid))))
	nulls := 0
	for k, v := range valid {
		if v {
			bitutil.SetBit(bitmap, k)
		} else {
			nulls++
		}
	}
	return nulls, memory.NewBufferBytes(bitmap)
}

// fixedListArr builds DuckDB's ARRAY(n) over child.
func fixedListArr(n int32, child arrow.Array) arrow.Array {
	dt := arrow.FixedSizeListOf(n, child.DataType())
	data := array.NewData(dt, child.Len()/int(n), []*memory.Buffer{nil}, []arrow.ArrayData{child.Data()}, 0, 0)
	return array.MakeFromData(data)
}

func mustHex(h string) []byte {
	b, err := hex.DecodeString(h)
	if err != nil {
		panic(err)
	}
	return b
}

// Types.
var (
	tBool        = sqltype.Type{ID: sqltype.Boolean}
	tTinyInt     = sqltype.Type{ID: sqltype.TinyInt}
	tSmallInt    = sqltype.Type{ID: sqltype.SmallInt}
	tInteger     = sqltype.Type{ID: sqltype.Integer}
	tBigInt      = sqltype.Type{ID: sqltype.BigInt}
	tUTinyInt    = sqltype.Type{ID: sqltype.UTinyInt}
	tUSmallInt   = sqltype.Type{ID: sqltype.USmallInt}
	tUInteger    = sqltype.Type{ID: sqltype.UInteger}
	tUBigInt     = sqltype.Type{ID: sqltype.UBigInt}
	tHugeInt     = sqltype.Type{ID: sqltype.HugeInt}
	tUHugeInt    = sqltype.Type{ID: sqltype.UHugeInt}
	tBigNum      = sqltype.Type{ID: sqltype.BigNum}
	tFloat       = sqltype.Type{ID: sqltype.Float}
	tDouble      = sqltype.Type{ID: sqltype.Double}
	tVarchar     = sqltype.Type{ID: sqltype.Varchar}
	tJSON        = sqltype.Type{ID: sqltype.Varchar, Alias: "JSON"}
	tEnum        = sqltype.Type{ID: sqltype.Enum}
	tUUID        = sqltype.Type{ID: sqltype.UUID}
	tBlob        = sqltype.Type{ID: sqltype.Blob}
	tBit         = sqltype.Type{ID: sqltype.Bit}
	tDate        = sqltype.Type{ID: sqltype.Date}
	tTime        = sqltype.Type{ID: sqltype.Time}
	tTimeTZ      = sqltype.Type{ID: sqltype.TimeTZ}
	tTimestamp   = sqltype.Type{ID: sqltype.Timestamp}
	tTimestampS  = sqltype.Type{ID: sqltype.TimestampS}
	tTimestampMS = sqltype.Type{ID: sqltype.TimestampMS}
	tTimestampNS = sqltype.Type{ID: sqltype.TimestampNS}
	tTimestampTZ = sqltype.Type{ID: sqltype.TimestampTZ}
	tInterval    = sqltype.Type{ID: sqltype.Interval}
	tSQLNull     = sqltype.Type{ID: sqltype.SQLNull}
	tAny         = sqltype.Type{ID: sqltype.Any}
)

func tDecimal(w, s uint8) sqltype.Type {
	return sqltype.Type{ID: sqltype.Decimal, Width: w, Scale: s}
}

func tList(elem sqltype.Type) sqltype.Type {
	return sqltype.Type{ID: sqltype.List, Elem: &elem}
}

func tArray(elem sqltype.Type, n int) sqltype.Type {
	return sqltype.Type{ID: sqltype.Array, Elem: &elem, Size: n}
}

func tMap(key, val sqltype.Type) sqltype.Type {
	return sqltype.Type{ID: sqltype.Map, Key: &key, Elem: &val}
}

func tStruct(fields ...sqltype.Field) sqltype.Type {
	return sqltype.Type{ID: sqltype.Struct, Fields: fields}
}

func tUnion(fields ...sqltype.Field) sqltype.Type {
	return sqltype.Type{ID: sqltype.Union, Fields: fields}
}

// encode runs the encoder of t in format on row i of arr.
func encode(t *testing.T, typ sqltype.Type, format int16, arr arrow.Array, i int) []byte {
	t.Helper()
	enc, err := pgcodec.NewEncoder(typ, format)
	if err != nil {
		t.Fatalf("NewEncoder(%s, %d): %v", typ, format, err)
	}
	return enc(nil, arr, i)
}
