package pgcodec_test

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/mallard/mallard/sqltype"
)

// encodeCase is one value to encode. pg is a PostgreSQL 15 expression of
// the same value and type; text and bin (hex) are what PostgreSQL 15 sends
// for it in text and binary format with DateStyle 'ISO, MDY',
// IntervalStyle postgres, TimeZone UTC and extra_float_digits 1, as
// recorded from a real server (TestEncodeMatchesPostgres re-checks them
// when MALLARD_TEST_POSTGRES is set).
type encodeCase struct {
	name string
	typ  sqltype.Type
	arr  arrow.Array
	pg   string
	text string
	bin  string
}

// Unix days and microseconds of values used below.
const (
	days2020   = 18262   // 2020-01-01
	days1BC    = -719528 // 0001-01-01 BC
	days10BC   = -722451 // 0010-12-31 BC
	days10000  = 2932897 // 10000-01-01
	us2020     = 1577840523123456
	us1BC      = -62167219200000000
	duckDayInf = math.MaxInt32
)

func scalarCases() []encodeCase {
	return []encodeCase{
		{"bool true", tBool, boolArr(true), `true`, "t", "01"},
		{"bool false", tBool, boolArr(false), `false`, "f", "00"},
		{"tinyint", tTinyInt, i8Arr(-128), `(-128)::int2`, "-128", "ff80"},
		{"utinyint", tUTinyInt, u8Arr(255), `255::int2`, "255", "00ff"},
		{"smallint", tSmallInt, i16Arr(-32768), `(-32768)::int2`, "-32768", "8000"},
		{"usmallint", tUSmallInt, u16Arr(65535), `65535::int4`, "65535", "0000ffff"},
		{"integer", tInteger, i32Arr(-2147483648), `(-2147483648)::int4`, "-2147483648", "80000000"},
		{"uinteger", tUInteger, u32Arr(4294967295), `4294967295::int8`, "4294967295", "00000000ffffffff"},
		{"bigint", tBigInt, i64Arr(math.MinInt64), `(-9223372036854775808)::int8`, "-9223372036854775808", "8000000000000000"},
		{"ubigint max", tUBigInt, u64Arr(math.MaxUint64), `18446744073709551615::numeric(20,0)`, "18446744073709551615", "000500040000000007341a5802e103bb064f"},
		{"ubigint zero", tUBigInt, u64Arr(0), `0::numeric(20,0)`, "0", "0000000000000000"},
		{"hugeint max", tHugeInt, decArr(38, 0, "170141183460469231731687303715884105727"), `170141183460469231731687303715884105727::numeric(39,0)`, "170141183460469231731687303715884105727", "000a00090000000000aa0583209a01d5090d0c601c871bf620da165f"},
		{"hugeint min", tHugeInt, decArr(38, 0, "-170141183460469231731687303715884105728"), `(-170141183460469231731687303715884105728)::numeric(39,0)`, "-170141183460469231731687303715884105728", "000a00094000000000aa0583209a01d5090d0c601c871bf620da1660"},
		{"hugeint -2", tHugeInt, decArr(38, 0, "-2"), `(-2)::numeric(39,0)`, "-2", "00010000400000000002"},
		{"hugeint 10^20", tHugeInt, decArr(38, 0, "100000000000000000000"), `100000000000000000000::numeric(39,0)`, "100000000000000000000", "00010005000000000001"},
		{"uhugeint max", tUHugeInt, decArr(38, 0, "-1"), `340282366920938463463374607431768211455::numeric(39,0)`, "340282366920938463463374607431768211455", "000a00090000000001540b071a2403aa121a18c111ff10dd1aa505af"},
		{"uhugeint lossless", tUHugeInt, fsbArr("ffffffffffffffffffffffffffffffff"), `340282366920938463463374607431768211455::numeric(39,0)`, "340282366920938463463374607431768211455", "000a00090000000001540b071a2403aa121a18c111ff10dd1aa505af"},
		{"hugeint lossless", tHugeInt, fsbArr("feffffffffffffffffffffffffffffff"), `(-2)::numeric(39,0)`, "-2", "00010000400000000002"},
		{"decimal 1.50", tDecimal(10, 2), decArr(10, 2, "150"), `1.50::numeric(10,2)`, "1.50", "000200000000000200011388"},
		{"decimal zero", tDecimal(10, 2), decArr(10, 2, "0"), `0::numeric(10,2)`, "0.00", "0000000000000002"},
		{"decimal -0.05", tDecimal(10, 2), decArr(10, 2, "-5"), `(-0.05)::numeric(10,2)`, "-0.05", "0001ffff4000000201f4"},
		{"decimal 4,1", tDecimal(4, 1), decArr(4, 1, "1234"), `123.4::numeric(4,1)`, "123.4", "0002000000000001007b0fa0"},
		{"decimal 18,6", tDecimal(18, 6), decArr(18, 6, "-123456000001"), `(-123456.000001)::numeric(18,6)`, "-123456.000001", "0004000140000006000c0d8000000064"},
		{"decimal 38,10", tDecimal(38, 10), decArr(38, 10, "12345678901234567890123456789012345678"), `1234567890123456789012345678.9012345678::numeric(38,10)`, "1234567890123456789012345678.9012345678", "000a00060000000a04d2162e23340d801ed204d2162e23340d801e78"},
		{"decimal 38,38", tDecimal(38, 38), decArr(38, 38, "1"), `0.00000000000000000000000000000000000001::numeric(38,38)`, "0.00000000000000000000000000000000000001", "0001fff6000000260064"},
		{"decimal 10000", tDecimal(18, 4), decArr(18, 4, "100000000"), `10000::numeric(18,4)`, "10000.0000", "00010001000000040001"},
		{"decimal 0.0001", tDecimal(10, 4), decArr(10, 4, "1"), `0.0001::numeric(10,4)`, "0.0001", "0001ffff000000040001"},
		{"decimal 1e8 scale 9", tDecimal(18, 9), decArr(18, 9, "100000000000000000"), `100000000::numeric(18,9)`, "100000000.000000000", "00010002000000090001"},
		{"bignum", tBigNum, binArr("80000a029d42b64e76714244cb"), `12345678901234567890123::numeric`, "12345678901234567890123", "0006000500000000007b11d722c509291a85007b"},
		{"bignum negative", tBigNum, binArr("7ffff5fd62bd49b1898ebdbb34"), `(-12345678901234567890123)::numeric`, "-12345678901234567890123", "0006000540000000007b11d722c509291a85007b"},
		{"bignum zero", tBigNum, binArr("80000100"), `0::numeric`, "0", "0000000000000000"},
		{"bignum -256", tBigNum, binArr("7ffffdfeff"), `(-256)::numeric`, "-256", "00010000400000000100"},
		// DuckDB computes 1e40::BIGNUM through DOUBLE, hence the digits.
		{"bignum 1e40", tBigNum, binArr("8000111d6329f1c35ca500000000000000000000"), `10000000000000000303786028427003666890752::numeric`, "10000000000000000303786028427003666890752", "000b000a00000000000100000000000000000bdd219a20eb00241a2102f0"},
	}
}

func floatCases() []encodeCase {
	return []encodeCase{
		{"float 0.1", tFloat, f32Arr(0.1), `0.1::float4`, "0.1", "3dcccccd"},
		{"float 1e6", tFloat, f32Arr(1e6), `1e6::float4`, "1e+06", "49742400"},
		{"float 100000", tFloat, f32Arr(100000), `100000::float4`, "100000", "47c35000"},
		{"float 123456.7", tFloat, f32Arr(123456.7), `123456.7::float4`, "123456.7", "47f1205a"},
		{"float 1.5e-5", tFloat, f32Arr(1.5e-5), `1.5e-5::float4`, "1.5e-05", "377ba882"},
		{"float 0.0001", tFloat, f32Arr(0.0001), `0.0001::float4`, "0.0001", "38d1b717"},
		{"float -0", tFloat, f32Arr(float32(math.Copysign(0, -1))), `'-0'::float4`, "-0", "80000000"},
		{"float zero", tFloat, f32Arr(0), `0::float4`, "0", "00000000"},
		{"float NaN", tFloat, f32Arr(float32(math.NaN())), `'NaN'::float4`, "NaN", "7fc00000"},
		{"float +Inf", tFloat, f32Arr(float32(math.Inf(1))), `'Infinity'::float4`, "Infinity", "7f800000"},
		{"float -Inf", tFloat, f32Arr(float32(math.Inf(-1))), `'-Infinity'::float4`, "-Infinity", "ff800000"},
		{"float max", tFloat, f32Arr(math.MaxFloat32), `3.4028235e38::float4`, "3.4028235e+38", "7f7fffff"},
		{"float denormal", tFloat, f32Arr(math.SmallestNonzeroFloat32), `1e-45::float4`, "1e-45", "00000001"},
		{"double 1.5", tDouble, f64Arr(1.5), `1.5::float8`, "1.5", "3ff8000000000000"},
		{"double 1e15", tDouble, f64Arr(1e15), `1e15::float8`, "1e+15", "430c6bf526340000"},
		{"double 1e14", tDouble, f64Arr(1e14), `1e14::float8`, "100000000000000", "42d6bcc41e900000"},
		{"double 999999999999999.9", tDouble, f64Arr(999999999999999.9), `999999999999999.9::float8`, "999999999999999.9", "430c6bf52633ffff"},
		{"double 1e-5", tDouble, f64Arr(1e-5), `1e-5::float8`, "1e-05", "3ee4f8b588e368f1"},
		{"double 0.0001", tDouble, f64Arr(0.0001), `0.0001::float8`, "0.0001", "3f1a36e2eb1c432d"},
		{"double third", tDouble, f64Arr(1.0 / 3), `(1.0/3)::float8`, "0.3333333333333333", "3fd5555555555555"},
		{"double 0.1+0.2", tDouble, f64Arr(0.30000000000000004), `(0.1::float8+0.2::float8)`, "0.30000000000000004", "3fd3333333333334"},
		{"double -1.25e-300", tDouble, f64Arr(-1.25e-300), `(-1.25e-300)::float8`, "-1.25e-300", "81aac9a7b3b7302f"},
		{"double max", tDouble, f64Arr(math.MaxFloat64), `1.7976931348623157e308::float8`, "1.7976931348623157e+308", "7fefffffffffffff"},
		{"double denormal", tDouble, f64Arr(5e-324), `5e-324::float8`, "5e-324", "0000000000000001"},
		{"double -0", tDouble, f64Arr(math.Copysign(0, -1)), `'-0'::float8`, "-0", "8000000000000000"},
		{"double NaN", tDouble, f64Arr(math.NaN()), `'NaN'::float8`, "NaN", "7ff8000000000000"},
		{"double +Inf", tDouble, f64Arr(math.Inf(1)), `'Infinity'::float8`, "Infinity", "7ff0000000000000"},
		{"double -Inf", tDouble, f64Arr(math.Inf(-1)), `'-Infinity'::float8`, "-Infinity", "fff0000000000000"},
	}
}

func stringCases() []encodeCase {
	return []encodeCase{
		{"varchar", tVarchar, strArr("hello, world"), `'hello, world'::text`, "hello, world", "68656c6c6f2c20776f726c64"},
		{"varchar empty", tVarchar, strArr(""), `''::text`, "", ""},
		{"varchar unicode", tVarchar, strArr("é \"q\" \\"), `E'é "q" \\'::text`, "é \"q\" \\", "c3a920227122205c"},
		{"json", tJSON, strArr(`{"a": [1, "x"]}`), `'{"a": [1, "x"]}'::json`, "{\"a\": [1, \"x\"]}", "7b2261223a205b312c202278225d7d"},
		{"enum", tEnum, enumArr([]string{"a", "bee"}, 1), `'bee'::text`, "bee", "626565"},
		{"uuid", tUUID, strArr("550e8400-e29b-41d4-a716-446655440000"), `'550e8400-e29b-41d4-a716-446655440000'::uuid`, "550e8400-e29b-41d4-a716-446655440000", "550e8400e29b41d4a716446655440000"},
		{"uuid lossless", tUUID, fsbArr("550e8400e29b41d4a716446655440000"), `'550e8400-e29b-41d4-a716-446655440000'::uuid`, "550e8400-e29b-41d4-a716-446655440000", "550e8400e29b41d4a716446655440000"},
		{"blob", tBlob, binArr("00ff10"), `'\x00ff10'::bytea`, "\\x00ff10", "00ff10"},
		{"blob empty", tBlob, binArr(""), `''::bytea`, "\\x", ""},
		{"bit 101", tBit, binArr("05fd"), `B'101'::varbit`, "101", "00000003a0"},
		{"bit 1", tBit, binArr("07ff"), `B'1'::varbit`, "1", "0000000180"},
		{"bit 11 bits", tBit, binArr("05fd55"), `B'10101010101'::varbit`, "10101010101", "0000000baaa0"},
		{"bit 8 bits", tBit, binArr("00a5"), `B'10100101'::varbit`, "10100101", "00000008a5"},
		{"any", tAny, strArr("x"), `'x'::text`, "x", "78"},
	}
}

func temporalCases() []encodeCase {
	return []encodeCase{
		{"date", tDate, dateArr(days2020), `'2020-01-01'::date`, "2020-01-01", "00001c89"},
		{"date 1 BC", tDate, dateArr(days1BC), `'0001-01-01 BC'::date`, "0001-01-01 BC", "fff4da8b"},
		{"date 10 BC", tDate, dateArr(days10BC), `'0010-12-31 BC'::date`, "0010-12-31 BC", "fff4cf20"},
		{"date 10000", tDate, dateArr(days10000), `'10000-01-01'::date`, "10000-01-01", "002c95d4"},
		{"date pg epoch", tDate, dateArr(10957), `'2000-01-01'::date`, "2000-01-01", "00000000"},
		{"date unix epoch", tDate, dateArr(0), `'1970-01-01'::date`, "1970-01-01", "ffffd533"},
		{"date infinity", tDate, dateArr(duckDayInf), `'infinity'::date`, "infinity", "7fffffff"},
		{"date -infinity", tDate, dateArr(-duckDayInf), `'-infinity'::date`, "-infinity", "80000000"},
		{"time", tTime, timeArr(3723500000), `'01:02:03.5'::time`, "01:02:03.5", "00000000ddf019e0"},
		{"time midnight", tTime, timeArr(0), `'00:00:00'::time`, "00:00:00", "0000000000000000"},
		{"time 24:00", tTime, timeArr(86400000000), `'24:00:00'::time`, "24:00:00", "000000141dd76000"},
		{"time max", tTime, timeArr(86399999999), `'23:59:59.999999'::time`, "23:59:59.999999", "000000141dd75fff"},
		{"timetz", tTimeTZ, timeArr(3723000000), `'01:02:03+00'::timetz`, "01:02:03+00", "00000000dde878c000000000"},
		{"timetz lossless +05", tTimeTZ, fsbArr("af9a00c078e8dd00"), `'01:02:03+05'::timetz`, "01:02:03+05", "00000000dde878c0ffffb9b0"},
		{"timetz lossless +05:30:15", tTimeTZ, fsbArr("989300c078e8dd00"), `'01:02:03+05:30:15'::timetz`, "01:02:03+05:30:15", "00000000dde878c0ffffb299"},
		{"timetz lossless -15:59", tTimeTZ, fsbArr("c3c101ff5fd71d14"), `'23:59:59.999999-15:59'::timetz`, "23:59:59.999999-15:59", "000000141dd75fff0000e0c4"},
		{"timestamp", tTimestamp, tsArr(arrow.Microsecond, "", us2020), `'2020-01-01 01:02:03.123456'::timestamp`, "2020-01-01 01:02:03.123456", "00023e0864acbb00"},
		{"timestamp BC", tTimestamp, tsArr(arrow.Microsecond, "", us1BC), `'0001-01-01 00:00:00 BC'::timestamp`, "0001-01-01 00:00:00 BC", "ff1fc63d1bb12000"},
		{"timestamp before pg epoch", tTimestamp, tsArr(arrow.Microsecond, "", 946684799000000), `'1999-12-31 23:59:59'::timestamp`, "1999-12-31 23:59:59", "fffffffffff0bdc0"},
		{"timestamp before unix epoch", tTimestamp, tsArr(arrow.Microsecond, "", -500000), `'1969-12-31 23:59:59.5'::timestamp`, "1969-12-31 23:59:59.5", "fffca2fec4c07ee0"},
		{"timestamp year 9999", tTimestamp, tsArr(arrow.Microsecond, "", 253402300799999999), `'9999-12-31 23:59:59.999999'::timestamp`, "9999-12-31 23:59:59.999999", "0380e70b913b7fff"},
		{"timestamp year 10000", tTimestamp, tsArr(arrow.Microsecond, "", 253402300800000000), `'10000-01-01 00:00:00'::timestamp`, "10000-01-01 00:00:00", "0380e70b913b8000"},
		{"timestamptz year 10000", tTimestampTZ, tsArr(arrow.Microsecond, "Etc/UTC", 253402300800000000), `'10000-01-01 00:00:00+00'::timestamptz`, "10000-01-01 00:00:00+00", "0380e70b913b8000"},
		{"timestamp infinity", tTimestamp, tsArr(arrow.Microsecond, "", math.MaxInt64), `'infinity'::timestamp`, "infinity", "7fffffffffffffff"},
		{"timestamp -infinity", tTimestamp, tsArr(arrow.Microsecond, "", -math.MaxInt64), `'-infinity'::timestamp`, "-infinity", "8000000000000000"},
		{"timestamp_s", tTimestampS, tsArr(arrow.Second, "", 1577840523), `'2020-01-01 01:02:03'::timestamp`, "2020-01-01 01:02:03", "00023e0864aad8c0"},
		{"timestamp_s infinity", tTimestampS, tsArr(arrow.Second, "", math.MaxInt64), `'infinity'::timestamp`, "infinity", "7fffffffffffffff"},
		{"timestamp_ms", tTimestampMS, tsArr(arrow.Millisecond, "", 1577840523120), `'2020-01-01 01:02:03.12'::timestamp`, "2020-01-01 01:02:03.12", "00023e0864acad80"},
		{"timestamp_ns", tTimestampNS, tsArr(arrow.Nanosecond, "", 1577840523123456789), `'2020-01-01 01:02:03.123456'::timestamp`, "2020-01-01 01:02:03.123456", "00023e0864acbb00"},
		{"timestamp_ns before epoch", tTimestampNS, tsArr(arrow.Nanosecond, "", -1), `'1969-12-31 23:59:59.999999'::timestamp`, "1969-12-31 23:59:59.999999", "fffca2fec4c81fff"},
		{"timestamptz", tTimestampTZ, tsArr(arrow.Microsecond, "Etc/UTC", us2020), `'2020-01-01 01:02:03.123456+00'::timestamptz`, "2020-01-01 01:02:03.123456+00", "00023e0864acbb00"},
		{"timestamptz BC", tTimestampTZ, tsArr(arrow.Microsecond, "Etc/UTC", us1BC), `'0001-01-01 00:00:00+00 BC'::timestamptz`, "0001-01-01 00:00:00+00 BC", "ff1fc63d1bb12000"},
		{"timestamptz -infinity", tTimestampTZ, tsArr(arrow.Microsecond, "Etc/UTC", -math.MaxInt64), `'-infinity'::timestamptz`, "-infinity", "8000000000000000"},
		{"interval", tInterval, intervalArr(14, 3, 14706789000), `'1 year 2 mons 3 days 04:05:06.789'::interval`, "1 year 2 mons 3 days 04:05:06.789", "000000036c97ca88000000030000000e"},
		{"interval -1 days", tInterval, intervalArr(0, -1, 0), `'-1 days'::interval`, "-1 days", "0000000000000000ffffffff00000000"},
		{"interval zero", tInterval, intervalArr(0, 0, 0), `'0'::interval`, "00:00:00", "00000000000000000000000000000000"},
		{"interval mixed", tInterval, intervalArr(0, -1, 7200000000), `'-1 days +02:00:00'::interval`, "-1 days +02:00:00", "00000001ad274800ffffffff00000000"},
		{"interval 1 mon -1 days", tInterval, intervalArr(1, -1, 0), `'1 mon -1 days'::interval`, "1 mon -1 days", "0000000000000000ffffffff00000001"},
		{"interval -14 months", tInterval, intervalArr(-14, 0, 0), `'-1 year -2 mons'::interval`, "-1 years -2 mons", "000000000000000000000000fffffff2"},
		{"interval negative time", tInterval, intervalArr(0, 0, -14706000000), `'-04:05:06'::interval`, "-04:05:06", "fffffffc93743f800000000000000000"},
		{"interval 1 day", tInterval, intervalArr(0, 1, 0), `'1 day'::interval`, "1 day", "00000000000000000000000100000000"},
		{"interval 100 hours", tInterval, intervalArr(0, 0, 360000500000), `'100 hours 0.5 seconds'::interval`, "100:00:00.5", "00000053d1b3b1200000000000000000"},
		{"interval all signs", tInterval, intervalArr(-1, 1, -3600000000), `'-1 mons 1 day -01:00:00'::interval`, "-1 mons +1 day -01:00:00", "ffffffff296c5c0000000001ffffffff"},
		{"interval 1 year", tInterval, intervalArr(12, 0, 1), `'1 year 0.000001 seconds'::interval`, "1 year 00:00:00.000001", "0000000000000001000000000000000c"},
	}
}
