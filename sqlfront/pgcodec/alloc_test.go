package pgcodec_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

// TestHotEncodersDoNotAllocate checks that encoding the common scalar
// types into a buffer with room allocates nothing.
func TestHotEncodersDoNotAllocate(t *testing.T) {
	tests := []struct {
		name string
		typ  sqltype.Type
		arr  arrow.Array
	}{
		{"bool", tBool, boolArr(true)},
		{"integer", tInteger, i32Arr(-7)},
		{"bigint", tBigInt, i64Arr(1 << 40)},
		{"double", tDouble, f64Arr(1.0 / 3)},
		{"float", tFloat, f32Arr(1e-7)},
		{"varchar", tVarchar, strArr("thirty-two characters of text..")},
		{"enum", tEnum, enumArr([]string{"a"}, 0)},
		{"date", tDate, dateArr(days2020)},
		{"date BC", tDate, dateArr(days1BC)},
		{"timestamp", tTimestamp, tsArr(arrow.Microsecond, "", us2020)},
		{"timestamptz", tTimestampTZ, tsArr(arrow.Microsecond, "Etc/UTC", us2020)},
		{"timestamptz in a zone", tTimestampTZ, tsArr(arrow.Microsecond, "America/New_York", us2020)},
		{"timestamp_ns", tTimestampNS, tsArr(arrow.Nanosecond, "", us2020*1000)},
		{"time", tTime, timeArr(3723500000)},
		{"interval", tInterval, intervalArr(14, 3, 14706789000)},
		{"decimal", tDecimal(38, 10), decArr(38, 10, "-12345678901234567890123456789012345678")},
		{"ubigint", tUBigInt, u64Arr(1 << 63)},
		{"uuid", tUUID, strArr("550e8400-e29b-41d4-a716-446655440000")},
	}
	for _, tt := range tests {
		for _, format := range []int16{pgcodec.FormatText, pgcodec.FormatBinary} {
			enc, err := pgcodec.NewEncoder(tt.typ, format)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, 256)
			if n := testing.AllocsPerRun(100, func() { buf = enc(buf[:0], tt.arr, 0) }); n != 0 {
				t.Errorf("%s format %d: %v allocations per value", tt.name, format, n)
			}
		}
	}
}
