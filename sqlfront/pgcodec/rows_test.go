package pgcodec_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

// rowsByEncoders is what a RowEncoder must produce for row i of cols: the
// field count, then each column's Encoder output with its length.
func rowsByEncoders(t *testing.T, types []sqltype.Type, format int16, cols []arrow.Array, i int) []byte {
	t.Helper()
	want := binary.BigEndian.AppendUint16(nil, uint16(len(cols)))
	for k, arr := range cols {
		if arr.IsNull(i) {
			want = binary.BigEndian.AppendUint32(want, 0xffffffff)
			continue
		}
		v := encode(t, types[k], format, arr, i)
		want = append(binary.BigEndian.AppendUint32(want, uint32(len(v))), v...)
	}
	return want
}

// bindRows returns a row encoder of types, all in format, bound to cols.
func bindRows(tb testing.TB, types []sqltype.Type, format int16, cols []arrow.Array) *pgcodec.BoundRows {
	tb.Helper()
	formats := make([]int16, len(types))
	for k := range formats {
		formats[k] = format
	}
	e, err := pgcodec.NewRowEncoder(types, formats)
	if err != nil {
		tb.Fatalf("NewRowEncoder: %v", err)
	}
	var b pgcodec.BoundRows
	b.Bind(e, cols)
	return &b
}

func appendRow(t *testing.T, types []sqltype.Type, format int16, cols []arrow.Array, i int) []byte {
	t.Helper()
	return bindRows(t, types, format, cols).AppendRow([]byte("prefix"), i)[len("prefix"):]
}

// TestRowEncoderMatchesEncoders requires the row encoder, which reads the
// common types straight from their Arrow buffers, to produce exactly what
// the columns' Encoders do for every encoding case and Arrow layout.
func TestRowEncoderMatchesEncoders(t *testing.T) {
	type one struct {
		name string
		typ  sqltype.Type
		arr  arrow.Array
		row  int
	}
	var all []one
	for _, c := range allCases() {
		all = append(all, one{c.name, c.typ, c.arr, 0})
	}
	for _, c := range variantCases() {
		all = append(all, one{"variant " + c.name, c.typ, c.arr, c.row})
	}
	for _, c := range all {
		for _, format := range []int16{pgcodec.FormatText, pgcodec.FormatBinary} {
			types, cols := []sqltype.Type{c.typ}, []arrow.Array{c.arr}
			got := appendRow(t, types, format, cols, c.row)
			if want := rowsByEncoders(t, types, format, cols, c.row); !bytes.Equal(got, want) {
				t.Errorf("%s, format %d: row %x, want %x", c.name, format, got, want)
			}
		}
	}
}

// TestRowEncoderBatch encodes every row of a batch of the directly read
// types, with NULLs in each column and the arrays sliced so that their data
// starts at an offset, in both formats.
func TestRowEncoderBatch(t *testing.T) {
	const n = 21
	valid := make([]bool, n)
	i16s, i32s, i64s := make([]int16, n), make([]int32, n), make([]int64, n)
	f64s, strs := make([]float64, n), make([]string, n)
	days, stamps := make([]arrow.Date32, n), make([]arrow.Timestamp, n)
	for k := range n {
		valid[k] = k%5 != 3
		i16s[k], i32s[k], i64s[k] = int16(-k*1000), int32(k*100_003), int64(k)<<40-7
		f64s[k], strs[k] = float64(k)/3-2, string(bytes.Repeat([]byte{'a' + byte(k)}, k))
		days[k], stamps[k] = arrow.Date32(k*4001-30000), arrow.Timestamp(int64(k)*86_400_000_123-1e15)
	}
	f64s[4] = zero64() / zero64()          // NaN
	stamps[7] = arrow.Timestamp(1<<63 - 1) // infinity
	days[8] = arrow.Date32(-(1<<31 - 1))   // -infinity
	tsType := &arrow.TimestampType{Unit: arrow.Microsecond}
	full := []arrow.Array{
		build(array.NewInt16Builder(mem()), i16s, valid),
		build(array.NewInt32Builder(mem()), i32s, valid),
		build(array.NewInt64Builder(mem()), i64s, valid),
		build(array.NewFloat64Builder(mem()), f64s, valid),
		build(array.NewStringBuilder(mem()), strs, valid),
		build(array.NewDate32Builder(mem()), days, valid),
		build(array.NewTimestampBuilder(mem(), tsType), stamps, valid),
	}
	types := []sqltype.Type{tSmallInt, tInteger, tBigInt, tDouble, tVarchar, tDate, tTimestamp}
	for _, from := range []int{0, 3} {
		cols := make([]arrow.Array, len(full))
		for k, arr := range full {
			cols[k] = array.NewSlice(arr, int64(from), n)
		}
		for _, format := range []int16{pgcodec.FormatText, pgcodec.FormatBinary} {
			b := bindRows(t, types, format, cols)
			nulls := 0
			for i := range n - from {
				got := b.AppendRow(nil, i)
				if want := rowsByEncoders(t, types, format, cols, i); !bytes.Equal(got, want) {
					t.Errorf("slice from %d, format %d, row %d: %x, want %x", from, format, i, got, want)
				}
				if cols[0].IsNull(i) {
					nulls++
				}
			}
			if nulls == 0 {
				t.Fatalf("slice from %d has no NULLs: the test checks nothing about them", from)
			}
		}
	}
}

// zero64 hides a zero from the compiler's constant folding.
func zero64() float64 { return 0 }
