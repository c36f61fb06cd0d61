package pgcodec_test

import (
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
)

// paramCase is one Bind parameter. duck is the DuckDB type the result is
// bound to; every string result was checked to CAST to it in DuckDB 1.5
// with the expected value.
type paramCase struct {
	name     string
	oid      uint32
	data     []byte
	want     any
	duck     string
	wantCode sqlstate.Code
}

// pgBinary encodes v as pgx would send a parameter of type oid in binary.
func pgBinary(oid uint32, v any) []byte {
	b, err := pgtype.NewMap().Encode(oid, pgtype.BinaryFormatCode, v, []byte{})
	if err != nil {
		panic(err)
	}
	return b
}

func utc(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
	return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
}

func i4(v int32) pgtype.Int4 { return pgtype.Int4{Int32: v, Valid: true} }

var uuidBytes = [16]byte{0x55, 0x0e, 0x84, 0x00, 0xe2, 0x9b, 0x41, 0xd4, 0xa7, 0x16, 0x44, 0x66, 0x55, 0x44, 0, 0}

func binaryScalarParams() []paramCase {
	return []paramCase{
		{"bool", pgtype.BoolOID, pgBinary(pgtype.BoolOID, true), true, "BOOLEAN", ""},
		{"int2", pgtype.Int2OID, pgBinary(pgtype.Int2OID, int16(-5)), int16(-5), "SMALLINT", ""},
		{"int4", pgtype.Int4OID, pgBinary(pgtype.Int4OID, int32(math.MinInt32)), int32(math.MinInt32), "INTEGER", ""},
		{"int8", pgtype.Int8OID, pgBinary(pgtype.Int8OID, int64(math.MaxInt64)), int64(math.MaxInt64), "BIGINT", ""},
		{"oid", pgtype.OIDOID, pgBinary(pgtype.OIDOID, uint32(4000000000)), int64(4000000000), "BIGINT", ""},
		{"float4", pgtype.Float4OID, pgBinary(pgtype.Float4OID, float32(1.5)), float32(1.5), "FLOAT", ""},
		{"float8", pgtype.Float8OID, pgBinary(pgtype.Float8OID, -0.25), -0.25, "DOUBLE", ""},
		{"bytea", pgtype.ByteaOID, pgBinary(pgtype.ByteaOID, []byte{0, 1, 0xff}), []byte{0, 1, 0xff}, "BLOB", ""},
		{"text", pgtype.TextOID, pgBinary(pgtype.TextOID, "héllo"), "héllo", "VARCHAR", ""},
		{"varchar", pgtype.VarcharOID, pgBinary(pgtype.VarcharOID, "v"), "v", "VARCHAR", ""},
		{"name", pgtype.NameOID, pgBinary(pgtype.NameOID, "n"), "n", "VARCHAR", ""},
		{`"char"`, pgtype.QCharOID, pgBinary(pgtype.QCharOID, byte('r')), "r", "VARCHAR", ""},
		{"bpchar", pgtype.BPCharOID, pgBinary(pgtype.BPCharOID, "b  "), "b  ", "VARCHAR", ""},
		{"json", pgtype.JSONOID, pgBinary(pgtype.JSONOID, map[string]any{"a": 1}), `{"a":1}`, "JSON", ""},
		{"unknown", pgtype.UnknownOID, []byte("u"), "u", "VARCHAR", ""},
		{"jsonb", pgtype.JSONBOID, pgBinary(pgtype.JSONBOID, map[string]any{"a": 1}), `{"a":1}`, "JSON", ""},
		{"date", pgtype.DateOID, pgBinary(pgtype.DateOID, utc(2020, 1, 1, 0, 0, 0, 0)), "2020-01-01", "DATE", ""},
		{"date BC", pgtype.DateOID, pgBinary(pgtype.DateOID, utc(-43, 3, 15, 0, 0, 0, 0)), "0044-03-15 (BC)", "DATE", ""},
		{"date infinity", pgtype.DateOID, pgBinary(pgtype.DateOID, pgtype.Date{InfinityModifier: pgtype.Infinity, Valid: true}), "infinity", "DATE", ""},
		{"date -infinity", pgtype.DateOID, pgBinary(pgtype.DateOID, pgtype.Date{InfinityModifier: pgtype.NegativeInfinity, Valid: true}), "-infinity", "DATE", ""},
		{"time", pgtype.TimeOID, pgBinary(pgtype.TimeOID, pgtype.Time{Microseconds: 3723500000, Valid: true}), "01:02:03.5", "TIME", ""},
		{"timetz", pgtype.TimetzOID, mustHex("00000000dde878c0ffffb9b0"), "01:02:03+05", "TIMETZ", ""},
		{"timetz west", pgtype.TimetzOID, mustHex("00000000ddf019e00000e0c4"), "01:02:03.5-15:59", "TIMETZ", ""},
		{"timestamp", pgtype.TimestampOID, pgBinary(pgtype.TimestampOID, utc(2020, 1, 1, 1, 2, 3, 123456000)), "2020-01-01 01:02:03.123456", "TIMESTAMP", ""},
		{"timestamp BC", pgtype.TimestampOID, pgBinary(pgtype.TimestampOID, utc(0, 1, 1, 0, 0, 0, 0)), "0001-01-01 (BC) 00:00:00", "TIMESTAMP", ""},
		{"timestamp infinity", pgtype.TimestampOID, pgBinary(pgtype.TimestampOID, pgtype.Timestamp{InfinityModifier: pgtype.Infinity, Valid: true}), "infinity", "TIMESTAMP", ""},
		{"timestamptz", pgtype.TimestamptzOID, pgBinary(pgtype.TimestamptzOID, utc(1969, 12, 31, 23, 59, 59, 500000000)), "1969-12-31 23:59:59.5+00", "TIMESTAMPTZ", ""},
		{"timestamptz -infinity", pgtype.TimestamptzOID, pgBinary(pgtype.TimestamptzOID, pgtype.Timestamptz{InfinityModifier: pgtype.NegativeInfinity, Valid: true}), "-infinity", "TIMESTAMPTZ", ""},
		{"interval", pgtype.IntervalOID, pgBinary(pgtype.IntervalOID, pgtype.Interval{Microseconds: 14706789000, Days: 3, Months: 14, Valid: true}), "14 months 3 days 14706789000 microseconds", "INTERVAL", ""},
		{"interval negative", pgtype.IntervalOID, pgBinary(pgtype.IntervalOID, pgtype.Interval{Microseconds: -1, Days: -2, Months: -3, Valid: true}), "-3 months -2 days -1 microseconds", "INTERVAL", ""},
		{"numeric", pgtype.NumericOID, pgBinary(pgtype.NumericOID, pgtype.Numeric{Int: big.NewInt(-123456789), Exp: -4, Valid: true}), "-12345.6789", "DECIMAL(18,4)", ""},
		{"numeric big", pgtype.NumericOID, pgBinary(pgtype.NumericOID, pgtype.Numeric{Int: bigInt("12345678901234567890123456789012345678"), Valid: true}), "12345678901234567890123456789012345678", "DECIMAL(38,0)", ""},
		{"numeric 1.50 from PostgreSQL", pgtype.NumericOID, mustHex("000200000000000200011388"), "1.50", "DECIMAL(10,2)", ""},
		{"numeric -0.05 from PostgreSQL", pgtype.NumericOID, mustHex("0001ffff4000000201f4"), "-0.05", "DECIMAL(10,2)", ""},
		{"numeric 0.00 from PostgreSQL", pgtype.NumericOID, mustHex("0000000000000002"), "0.00", "DECIMAL(10,2)", ""},
		{"numeric 10000 from PostgreSQL", pgtype.NumericOID, mustHex("00010001000000000001"), "10000", "DECIMAL(10,0)", ""},
		{"numeric 1e-38 from PostgreSQL", pgtype.NumericOID, mustHex("0001fff6000000260064"), "0.00000000000000000000000000000000000001", "DECIMAL(38,38)", ""},
		{"numeric NaN", pgtype.NumericOID, mustHex("00000000c0000000"), "NaN", "DOUBLE", ""},
		{"numeric Infinity", pgtype.NumericOID, mustHex("00000000d0000000"), "Infinity", "DOUBLE", ""},
		{"uuid", pgtype.UUIDOID, pgBinary(pgtype.UUIDOID, uuidBytes), "550e8400-e29b-41d4-a716-446655440000", "UUID", ""},
		{"varbit", pgtype.VarbitOID, pgBinary(pgtype.VarbitOID, pgtype.Bits{Bytes: []byte{0xa0}, Len: 3, Valid: true}), "101", "BIT", ""},
		{"bit", pgtype.BitOID, mustHex("0000000baaa0"), "10101010101", "BIT", ""},
	}
}

func bigInt(s string) *big.Int {
	n, _ := new(big.Int).SetString(s, 10)
	return n
}

func binaryArrayParams() []paramCase {
	return []paramCase{
		{"int4[]", pgtype.Int4ArrayOID, pgBinary(pgtype.Int4ArrayOID, []pgtype.Int4{i4(1), {}, i4(-3)}), "[1, NULL, -3]", "INTEGER[]", ""},
		{"int4[] empty", pgtype.Int4ArrayOID, pgBinary(pgtype.Int4ArrayOID, []int32{}), "[]", "INTEGER[]", ""},
		{"int4[][]", pgtype.Int4ArrayOID, pgBinary(pgtype.Int4ArrayOID, [][]int32{{1, 2}, {3, 4}}), "[[1, 2], [3, 4]]", "INTEGER[][]", ""},
		{"int2[]", pgtype.Int2ArrayOID, pgBinary(pgtype.Int2ArrayOID, []int16{7}), "[7]", "SMALLINT[]", ""},
		{"int8[]", pgtype.Int8ArrayOID, pgBinary(pgtype.Int8ArrayOID, []int64{math.MinInt64}), "[-9223372036854775808]", "BIGINT[]", ""},
		{"bool[]", pgtype.BoolArrayOID, pgBinary(pgtype.BoolArrayOID, []bool{true, false}), "[true, false]", "BOOLEAN[]", ""},
		{"float4[]", pgtype.Float4ArrayOID, pgBinary(pgtype.Float4ArrayOID, []float32{0.1}), "[0.1]", "FLOAT[]", ""},
		{"float8[]", pgtype.Float8ArrayOID, pgBinary(pgtype.Float8ArrayOID, []float64{1e20, math.NaN(), math.Inf(-1)}), "[1e+20, NaN, -Infinity]", "DOUBLE[]", ""},
		{"text[]", pgtype.TextArrayOID, pgBinary(pgtype.TextArrayOID, []string{"a b", `q"\`, "NULL", "it's", ""}), `["a b", "q\"\\", "NULL", "it's", ""]`, "VARCHAR[]", ""},
		{`"char"[]`, pgtype.QCharArrayOID, pgBinary(pgtype.QCharArrayOID, []byte{'r', 'v'}), `["r", "v"]`, "VARCHAR[]", ""},
		{"name[]", pgtype.NameArrayOID, pgBinary(pgtype.NameArrayOID, []string{"pg_catalog", "my schema"}), `["pg_catalog", "my schema"]`, "VARCHAR[]", ""},
		{"varchar[]", pgtype.VarcharArrayOID, pgBinary(pgtype.VarcharArrayOID, []string{"[x]", "{y}"}), `["[x]", "{y}"]`, "VARCHAR[]", ""},
		{"bytea[]", pgtype.ByteaArrayOID, pgBinary(pgtype.ByteaArrayOID, [][]byte{{0, 'a', '\\', '"'}}), `["\\x00615c22"]`, "BLOB[]", ""},
		{"date[]", pgtype.DateArrayOID, pgBinary(pgtype.DateArrayOID, []time.Time{utc(2020, 1, 1, 0, 0, 0, 0), utc(-9, 1, 1, 0, 0, 0, 0)}), `["2020-01-01", "0010-01-01 (BC)"]`, "DATE[]", ""},
		{"time[]", pgtype.TimeArrayOID, pgBinary(pgtype.TimeArrayOID, []pgtype.Time{{Microseconds: 1, Valid: true}}), `["00:00:00.000001"]`, "TIME[]", ""},
		{"timestamp[]", pgtype.TimestampArrayOID, pgBinary(pgtype.TimestampArrayOID, []time.Time{utc(2020, 1, 1, 0, 0, 0, 0)}), `["2020-01-01 00:00:00"]`, "TIMESTAMP[]", ""},
		{"timestamptz[]", pgtype.TimestamptzArrayOID, pgBinary(pgtype.TimestamptzArrayOID, []time.Time{utc(2020, 1, 1, 0, 0, 0, 0)}), `["2020-01-01 00:00:00+00"]`, "TIMESTAMPTZ[]", ""},
		{"interval[]", pgtype.IntervalArrayOID, pgBinary(pgtype.IntervalArrayOID, []pgtype.Interval{{Days: 1, Valid: true}}), `["0 months 1 days 0 microseconds"]`, "INTERVAL[]", ""},
		{"numeric[]", pgtype.NumericArrayOID, pgBinary(pgtype.NumericArrayOID, []pgtype.Numeric{{Int: big.NewInt(150), Exp: -2, Valid: true}, {}}), `["1.50", NULL]`, "DECIMAL(4,2)[]", ""},
		{"uuid[]", pgtype.UUIDArrayOID, pgBinary(pgtype.UUIDArrayOID, [][16]byte{uuidBytes}), `["550e8400-e29b-41d4-a716-446655440000"]`, "UUID[]", ""},
		{"json[]", pgtype.JSONArrayOID, pgBinary(pgtype.JSONArrayOID, []any{map[string]any{"a": 1}, nil}), `[{"a":1}, null]`, "JSON[]", ""},
		{"jsonb[]", pgtype.JSONBArrayOID, pgBinary(pgtype.JSONBArrayOID, []any{[]int{1}}), `[[1]]`, "JSON[]", ""},
		{"varbit[]", pgtype.VarbitArrayOID, pgBinary(pgtype.VarbitArrayOID, []pgtype.Bits{{Bytes: []byte{0x80}, Len: 1, Valid: true}}), `["1"]`, "BIT[]", ""},
		{"timetz[] from PostgreSQL", pgtype.TimetzArrayOID, mustHex("0000000100000000000004f200000001000000010000000c00000000dde878c0ffffb9b0"), `["01:02:03+05"]`, "TIMETZ[]", ""},
	}
}

func badBinaryParams() []paramCase {
	bad := sqlstate.InvalidBinaryRepresentation
	return []paramCase{
		{"bool too long", pgtype.BoolOID, []byte{1, 0}, nil, "", bad},
		{"int4 too short", pgtype.Int4OID, []byte{0, 0, 1}, nil, "", bad},
		{"int8 empty", pgtype.Int8OID, []byte{}, nil, "", bad},
		{"float8 too short", pgtype.Float8OID, make([]byte, 7), nil, "", bad},
		{"text not UTF-8", pgtype.TextOID, []byte{0xff, 0xfe}, nil, "", bad},
		{"jsonb version 2", pgtype.JSONBOID, []byte("\x02{}"), nil, "", bad},
		{"jsonb empty", pgtype.JSONBOID, []byte{}, nil, "", bad},
		{"date too short", pgtype.DateOID, []byte{0, 0, 0}, nil, "", bad},
		{"time negative", pgtype.TimeOID, mustHex("ffffffffffffffff"), nil, "", bad},
		{"time after midnight", pgtype.TimeOID, mustHex("000000141dd76001"), nil, "", bad},
		{"timetz zone out of range", pgtype.TimetzOID, mustHex("00000000dde878c000010000"), nil, "", bad},
		{"timestamp overflow", pgtype.TimestampOID, mustHex("7ffffffffffffffe"), nil, "", bad},
		{"interval too short", pgtype.IntervalOID, make([]byte, 15), nil, "", bad},
		{"numeric short header", pgtype.NumericOID, []byte{0, 1}, nil, "", bad},
		{"numeric missing digits", pgtype.NumericOID, mustHex("0002000000000000"), nil, "", bad},
		{"numeric bad sign", pgtype.NumericOID, mustHex("0000000012340000"), nil, "", bad},
		{"numeric bad digit", pgtype.NumericOID, mustHex("00010000000000002710"), nil, "", bad},
		{"numeric bad dscale", pgtype.NumericOID, mustHex("000000000000ffff"), nil, "", bad},
		{"uuid too short", pgtype.UUIDOID, make([]byte, 15), nil, "", bad},
		{"varbit too few bytes", pgtype.VarbitOID, mustHex("00000009ff"), nil, "", bad},
		{"varbit negative length", pgtype.VarbitOID, mustHex("ffffffff"), nil, "", bad},
		{"array truncated header", pgtype.Int4ArrayOID, mustHex("00000001"), nil, "", bad},
		{"array too many dimensions", pgtype.Int4ArrayOID, mustHex("000000070000000000000017"), nil, "", bad},
		{"array bad flags", pgtype.Int4ArrayOID, mustHex("000000010000000200000017"), nil, "", bad},
		{"array huge dimension", pgtype.Int4ArrayOID, mustHex("0000000100000000000000177fffffff00000001"), nil, "", bad},
		{"array negative dimension", pgtype.Int4ArrayOID, mustHex("000000010000000000000017ffffffff00000001"), nil, "", bad},
		{"array truncated element", pgtype.Int4ArrayOID, mustHex("00000001000000000000001700000001000000010000000400"), nil, "", bad},
		{"array bad element length", pgtype.Int4ArrayOID, mustHex("000000010000000000000017000000010000000100000003000000"), nil, "", bad},
		{"array trailing bytes", pgtype.Int4ArrayOID, mustHex("000000000000000000000017ff"), nil, "", bad},
		{"array element type mismatch", pgtype.Int4ArrayOID, mustHex("000000000000000000000014"), nil, "", sqlstate.DatatypeMismatch},
		{"unsupported type", 600, mustHex("00"), nil, "", sqlstate.FeatureNotSupported},
	}
}

func TestDecodeParamBinary(t *testing.T) {
	for _, group := range [][]paramCase{binaryScalarParams(), binaryArrayParams(), badBinaryParams()} {
		runParamCases(t, pgcodec.FormatBinary, group)
	}
}

func runParamCases(t *testing.T, format int16, cases []paramCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := pgcodec.DecodeParam(c.oid, format, c.data)
			if code := sqlstate.CodeOf(err); code != c.wantCode {
				t.Fatalf("DecodeParam error %v, want SQLSTATE %q", err, c.wantCode)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("DecodeParam = %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestDecodeParamErrorMessages(t *testing.T) {
	tests := []struct {
		name   string
		oid    uint32
		format int16
		data   []byte
		want   string
	}{
		{"names the binary type", pgtype.Int4OID, 1, []byte{1}, "int4: want 4 bytes, got 1"},
		{"names the array type", pgtype.Int4ArrayOID, 1, []byte{1}, "int4[]"},
		{"names the unsupported OID", 600, 1, []byte{1}, "OID 600"},
		{"names the text type", pgtype.ByteaOID, 0, []byte(`\x1`), "bytea: odd number of hex digits"},
		{"names the bad bool", pgtype.BoolOID, 0, []byte("maybe"), `bool: "maybe"`},
		{"names the format", pgtype.Int4OID, 2, []byte{1}, "format code 2"},
	}
	for _, tt := range tests {
		_, err := pgcodec.DecodeParam(tt.oid, tt.format, tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

func TestDecodeParamNull(t *testing.T) {
	for _, format := range []int16{pgcodec.FormatText, pgcodec.FormatBinary} {
		for _, oid := range []uint32{pgtype.Int4OID, pgtype.ByteaOID, pgtype.TextArrayOID, 600} {
			if got, err := pgcodec.DecodeParam(oid, format, nil); got != nil || err != nil {
				t.Errorf("DecodeParam(%d, %d, nil) = %v, %v; want nil, nil", oid, format, got, err)
			}
		}
	}
}

// TestDecodeParamCopies checks that results do not alias the message
// buffer, which the caller reuses.
func TestDecodeParamCopies(t *testing.T) {
	data := []byte{1, 2, 3}
	got, _ := pgcodec.DecodeParam(pgtype.ByteaOID, pgcodec.FormatBinary, data)
	data[0] = 9
	if b := got.([]byte); b[0] != 1 {
		t.Errorf("bytea result aliases its input: %v", b)
	}
}
