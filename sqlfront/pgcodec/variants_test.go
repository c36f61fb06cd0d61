package pgcodec_test

import (
	"encoding/hex"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

// TestEncodeArrowVariants covers the Arrow layouts DuckDB switches to
// under its arrow_large_buffer_size, produce_arrow_string_view and
// arrow_lossless_conversion settings, time zones other than UTC, other
// dictionary index widths, narrower decimals, rows other than the first
// and sliced arrays, whose data starts at an offset.
func TestEncodeArrowVariants(t *testing.T) {
	for _, tt := range variantCases() {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(encode(t, tt.typ, pgcodec.FormatText, tt.arr, tt.row)); got != tt.text {
				t.Errorf("text = %q, want %q", got, tt.text)
			}
			if got := hex.EncodeToString(encode(t, tt.typ, pgcodec.FormatBinary, tt.arr, tt.row)); got != tt.bin {
				t.Errorf("binary = %s, want %s", got, tt.bin)
			}
		})
	}
}

// variantCase is a value at row of arr and its encodings.
type variantCase struct {
	name string
	typ  sqltype.Type
	arr  arrow.Array
	row  int
	text string
	bin  string
}

func variantCases() []variantCase {
	return []variantCase{
		{"large_utf8", tVarchar, largeStrArr("héllo"), 0, "héllo", "68c3a96c6c6f"},
		{"string_view", tVarchar, viewStrArr("short", "a string longer than twelve bytes"), 1,
			"a string longer than twelve bytes", hex.EncodeToString([]byte("a string longer than twelve bytes"))},
		{"large_binary", tBlob, largeBinArr("\x01\xab"), 0, `\x01ab`, "01ab"},
		{"large_list", tList(tInteger), largeListArr(), 0, "{7,NULL}", "00000001000000010000001700000002000000010000000400000007ffffffff"},
		{"enum uint16 indices", tEnum, enum16Arr(), 1, "second", hex.EncodeToString([]byte("second"))},
		{"bool8", tBool, i8Arr(1), 0, "t", "01"},
		{"bool8 in a list", tList(tBool), listArr(i8Arr(1, 0), 2), 0, "{t,f}", "000000010000000000000010000000020000000100000001010000000100"},
		{"timestamptz in a session's zone", tTimestampTZ, tsArr(arrow.Microsecond, "America/New_York", us2020), 0,
			"2019-12-31 20:02:03.123456-05", "00023e0864acbb00"},
		{"timestamptz at a half-hour offset", tTimestampTZ, tsArr(arrow.Microsecond, "Asia/Kolkata", us2020), 0,
			"2020-01-01 06:32:03.123456+05:30", "00023e0864acbb00"},
		{"decimal64", tDecimal(12, 3), dec64Arr(-1234567), 0, "-1234.567", "000200004000000304d21626"},
		{"decimal32", tDecimal(5, 2), dec32Arr(5), 0, "0.05", "0001ffff0000000201f4"},
		{"third row", tBigInt, i64Arr(1, 2, 3), 2, "3", "0000000000000003"},
		{"sliced int", tInteger, array.NewSlice(i32Arr(1, 2, 3), 1, 3), 1, "3", "00000003"},
		{"sliced list", tList(tInteger), array.NewSlice(listArr(i32Arr(1, 2, 3, 4), 1, 3), 1, 2), 0,
			"{2,3,4}", "0000000100000000000000170000000300000001000000040000000200000004000000030000000400000004"},
		{"sliced struct", tStruct(field("a", tInteger)), array.NewSlice(structArr([]string{"a"}, i32Arr(5, 6)), 1, 2), 0,
			`{"a":6}`, hex.EncodeToString([]byte(`{"a":6}`))},
		{"sliced union", tUnion(field("i", tInteger), field("s", tVarchar)), array.NewSlice(twoRowUnion(), 1, 2), 0,
			`"second"`, hex.EncodeToString([]byte(`"second"`))},
		{"dense union", tUnion(field("i", tInteger), field("s", tVarchar)), denseUnionArr(), 1,
			"42", hex.EncodeToString([]byte("42"))},
		{"union holding null", tUnion(field("i", tInteger)), nullUnionArr(), 0, "null", hex.EncodeToString([]byte("null"))},
		{"json control characters", tStruct(field("s", tVarchar)), structArr([]string{"s"}, strArr("\x01\t")), 0,
			`{"s":"\u0001\t"}`, hex.EncodeToString([]byte(`{"s":"\u0001\t"}`))},
		{"json keys escaped", tStruct(field(`we"ird`, tInteger)), structArr([]string{`we"ird`}, i32Arr(1)), 0,
			`{"we\"ird":1}`, hex.EncodeToString([]byte(`{"we\"ird":1}`))},
		{"json float NaN in list", tList(tList(tFloat)), listArr(listArr(f32Arr(1e-7, float32(0)/zero32()), 2), 1), 0,
			`[[1e-07,"NaN"]]`, hex.EncodeToString([]byte(`[[1e-07,"NaN"]]`))},
	}
}

// zero32 hides a zero from the compiler's constant folding.
func zero32() float32 { return 0 }

func largeStrArr(v ...string) arrow.Array {
	return build(array.NewLargeStringBuilder(mem()), v, nil)
}

func viewStrArr(v ...string) arrow.Array {
	return build(array.NewStringViewBuilder(mem()), v, nil)
}

func largeBinArr(v ...string) arrow.Array {
	b := array.NewBinaryBuilder(mem(), arrow.BinaryTypes.LargeBinary)
	defer b.Release()
	b.AppendStringValues(v, nil)
	return b.NewArray()
}

// largeListArr builds a large_list<int32> holding [7, NULL].
func largeListArr() arrow.Array {
	b := array.NewLargeListBuilder(mem(), arrow.PrimitiveTypes.Int32)
	defer b.Release()
	b.Append(true)
	vb := b.ValueBuilder().(*array.Int32Builder)
	vb.Append(7)
	vb.AppendNull()
	return b.NewArray()
}

func enum16Arr() arrow.Array {
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint16, ValueType: arrow.BinaryTypes.String}
	return array.NewDictionaryArray(dt, u16Arr(0, 1), strArr("first", "second"))
}

func dec64Arr(v int64) arrow.Array {
	b := array.NewDecimal64Builder(mem(), &arrow.Decimal64Type{Precision: 12, Scale: 3})
	return build(b, []decimal.Decimal64{decimal.Decimal64(v)}, nil)
}

func dec32Arr(v int32) arrow.Array {
	b := array.NewDecimal32Builder(mem(), &arrow.Decimal32Type{Precision: 5, Scale: 2})
	return build(b, []decimal.Decimal32{decimal.Decimal32(v)}, nil)
}

// twoRowUnion builds a sparse UNION(i INTEGER, s VARCHAR) of 1, 'second'.
func twoRowUnion() arrow.Array {
	u, err := array.NewSparseUnionFromArraysWithFields(i8Arr(0, 1),
		[]arrow.Array{i32Arr(1, 0), strArr("", "second")}, []string{"i", "s"})
	if err != nil {
		panic(err)
	}
	return u
}

// denseUnionArr builds a dense UNION(i INTEGER, s VARCHAR) of 'x', 42.
func denseUnionArr() arrow.Array {
	u, err := array.NewDenseUnionFromArraysWithFields(i8Arr(1, 0), i32Arr(0, 0),
		[]arrow.Array{i32Arr(42), strArr("x")}, []string{"i", "s"})
	if err != nil {
		panic(err)
	}
	return u
}

// nullUnionArr builds a sparse UNION(i INTEGER) whose only row is NULL,
// which DuckDB spells as a NULL in the selected member.
func nullUnionArr() arrow.Array {
	u, err := array.NewSparseUnionFromArraysWithFields(i8Arr(0),
		[]arrow.Array{i32ArrN([]int32{0}, []bool{false})}, []string{"i"})
	if err != nil {
		panic(err)
	}
	return u
}
