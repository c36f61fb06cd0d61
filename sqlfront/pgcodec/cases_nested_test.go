package pgcodec_test

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

func arrayCases() []encodeCase {
	return []encodeCase{
		{"int4[]", tList(tInteger), listArr(i32ArrN([]int32{1, 2, 0}, []bool{true, true, false}), 3), `array[1,2,null]::int4[]`, "{1,2,NULL}", "000000010000000100000017000000030000000100000004000000010000000400000002ffffffff"},
		{"int4[] empty", tList(tInteger), listArr(i32Arr(), 0), `'{}'::int4[]`, "{}", "000000000000000000000017"},
		{"int4[2] fixed", tArray(tInteger, 2), fixedListArr(2, i32Arr(1, 2)), `array[1,2]::int4[]`, "{1,2}", "000000010000000000000017000000020000000100000004000000010000000400000002"},
		{"text[] quoting", tList(tVarchar), listArr(strArrN(
			[]string{"a b", "", `x"y`, `c\d`, "NULL", "null", "plain", "", "{x}", "a,b", " lead", "tab\there", "é"},
			[]bool{true, true, true, true, true, true, true, false, true, true, true, true, true}), 13),
			`array['a b','','x"y','c\d','NULL','null','plain',null,'{x}','a,b',' lead',E'tab\there','é']::text[]`, "{\"a b\",\"\",\"x\\\"y\",\"c\\\\d\",\"NULL\",\"null\",plain,NULL,\"{x}\",\"a,b\",\" lead\",\"tab\there\",é}", "0000000100000001000000190000000d0000000100000003612062000000000000000378227900000003635c64000000044e554c4c000000046e756c6c00000005706c61696effffffff000000037b787d00000003612c6200000005206c65616400000008746162096865726500000002c3a9"},
		{"enum[]", tList(tEnum), listArr(enumArr([]string{"a", "b c"}, 1, 0), 2), `array['b c','a']::text[]`, "{\"b c\",a}", "0000000100000000000000190000000200000001000000036220630000000161"},
		{"bool[]", tList(tBool), listArr(boolArr(true, false), 2), `array[true,false]`, "{t,f}", "000000010000000000000010000000020000000100000001010000000100"},
		{"int2[] of tinyint", tList(tTinyInt), listArr(i8Arr(1, -1), 2), `array[1,-1]::int2[]`, "{1,-1}", "000000010000000000000015000000020000000100000002000100000002ffff"},
		{"int8[]", tList(tBigInt), listArr(i64Arr(1, math.MaxInt64), 2), `array[1,9223372036854775807]::int8[]`, "{1,9223372036854775807}", "0000000100000000000000140000000200000001000000080000000000000001000000087fffffffffffffff"},
		{"float4[]", tList(tFloat), listArr(f32Arr(1, 1e6), 2), `array[1,1e6]::float4[]`, "{1,1e+06}", "0000000100000000000002bc0000000200000001000000043f8000000000000449742400"},
		{"float8[]", tList(tDouble), listArr(f64Arr(1.5, math.NaN(), math.Inf(1), math.Copysign(0, -1)), 4), `array[1.5,'NaN','Infinity','-0']::float8[]`, "{1.5,NaN,Infinity,-0}", "0000000100000000000002bd0000000400000001000000083ff8000000000000000000087ff8000000000000000000087ff0000000000000000000088000000000000000"},
		{"numeric[]", tList(tDecimal(4, 2)), listArr(decArr(4, 2, "150", "-1"), 2), `'{1.50,-0.01}'::numeric(4,2)[]`, "{1.50,-0.01}", "0000000100000000000006a400000002000000010000000c0002000000000002000113880000000a0001ffff400000020064"},
		{"numeric[] of ubigint", tList(tUBigInt), listArr(u64Arr(7), 1), `'{7}'::numeric(20,0)[]`, "{7}", "0000000100000000000006a400000001000000010000000a00010000000000000007"},
		{"bytea[]", tList(tBlob), listArr(binArr("0102", ""), 2), `array['\x0102'::bytea,'\x']`, "{\"\\\\x0102\",\"\\\\x\"}", "000000010000000000000011000000020000000100000002010200000000"},
		{"date[]", tList(tDate), listArr(dateArr(days2020, duckDayInf), 2), `array['2020-01-01'::date,'infinity']`, "{2020-01-01,infinity}", "00000001000000000000043a00000002000000010000000400001c89000000047fffffff"},
		{"time[]", tList(tTime), listArr(timeArr(3723000000), 1), `array['01:02:03'::time]`, "{01:02:03}", "00000001000000000000043b00000001000000010000000800000000dde878c0"},
		{"timetz[]", tList(tTimeTZ), listArr(timeArr(3723000000), 1), `array['01:02:03+00'::timetz]`, "{01:02:03+00}", "0000000100000000000004f200000001000000010000000c00000000dde878c000000000"},
		{"timestamp[]", tList(tTimestamp), listArr(tsArr(arrow.Microsecond, "", 1577836800000000), 1), `array['2020-01-01 00:00:00'::timestamp]`, "{\"2020-01-01 00:00:00\"}", "00000001000000000000045a00000001000000010000000800023e0786c26000"},
		{"timestamp[] of ns", tList(tTimestampNS), listArr(tsArr(arrow.Nanosecond, "", 1577836800000001000), 1), `array['2020-01-01 00:00:00.000001'::timestamp]`, "{\"2020-01-01 00:00:00.000001\"}", "00000001000000000000045a00000001000000010000000800023e0786c26001"},
		{"timestamptz[]", tList(tTimestampTZ), listArr(tsArr(arrow.Microsecond, "Etc/UTC", 1577836800000000), 1), `array['2020-01-01 00:00:00+00'::timestamptz]`, "{\"2020-01-01 00:00:00+00\"}", "0000000100000000000004a000000001000000010000000800023e0786c26000"},
		{"interval[]", tList(tInterval), listArr(intervalArr(0, 1, 0), 1), `array['1 day'::interval]`, "{\"1 day\"}", "0000000100000000000004a200000001000000010000001000000000000000000000000100000000"},
		{"uuid[]", tList(tUUID), listArr(strArr("550e8400-e29b-41d4-a716-446655440000"), 1), `array['550e8400-e29b-41d4-a716-446655440000'::uuid]`, "{550e8400-e29b-41d4-a716-446655440000}", "000000010000000000000b86000000010000000100000010550e8400e29b41d4a716446655440000"},
		{"json[]", tList(tJSON), listArr(strArr(`{"a": 1}`, `"x"`), 2), `array['{"a": 1}'::json, '"x"']`, "{\"{\\\"a\\\": 1}\",\"\\\"x\\\"\"}", "0000000100000000000000720000000200000001000000087b2261223a20317d00000003227822"},
		{"varbit[]", tList(tBit), listArr(binArr("05fd"), 1), `array[B'101'::varbit]`, "{101}", "00000001000000000000061a00000001000000010000000500000003a0"},
		{"int2vector", tInt2Vector, listArr(i16Arr(1, -3, 7), 3), `'1 -3 7'::int2vector`, "1 -3 7", "000000010000000000000015000000030000000000000002000100000002fffd000000020007"},
		{"int2vector empty", tInt2Vector, listArr(i16Arr(), 0), `''::int2vector`, "", "0000000100000000000000150000000000000000"},
		{"oidvector", tOIDVector, listArr(i64Arr(23, 4294967295), 2), `'23 4294967295'::oidvector`, "23 4294967295", "00000001000000000000001a0000000200000000000000040000001700000004ffffffff"},
	}
}

// Postgres' int2vector and oidvector: lists of the element aliases storage
// registers for them.
var (
	tInt2Vector = tList(sqltype.Type{ID: sqltype.SmallInt, Alias: sqltype.AliasInt2VectorElem})
	tOIDVector  = tList(sqltype.Type{ID: sqltype.BigInt, Alias: sqltype.AliasOIDVectorElem})
)

func jsonCases() []encodeCase {
	return []encodeCase{
		{"struct", tStruct(field("x", tInteger), field("s", tVarchar), field("n", tInteger)),
			structArr([]string{"x", "s", "n"}, i32Arr(1), strArr("a\"b\n"), i32ArrN([]int32{0}, []bool{false})),
			`'{"x":1,"s":"a\"b\n","n":null}'::json`, "{\"x\":1,\"s\":\"a\\\"b\\n\",\"n\":null}", "7b2278223a312c2273223a22615c22625c6e222c226e223a6e756c6c7d"},
		{"list of lists", tList(tList(tInteger)), listArr(listArr(i32Arr(1, 2), 2, -1, 0), 3),
			`'[[1,2],null,[]]'::json`, "[[1,2],null,[]]", "5b5b312c325d2c6e756c6c2c5b5d5d"},
		{"struct with control characters", tStruct(field("s", tVarchar)), structArr([]string{"s"}, strArr("\b\f\x01")),
			`'{"s":"\b\f\u0001"}'::json`, `{"s":"\b\f\u0001"}`, "7b2273223a225c625c665c7530303031227d"},
		{"list of structs", tList(tStruct(field("k", tVarchar))), listArr(structArr([]string{"k"}, strArr("a", "b")), 2),
			`'[{"k":"a"},{"k":"b"}]'::json`, "[{\"k\":\"a\"},{\"k\":\"b\"}]", "5b7b226b223a2261227d2c7b226b223a2262227d5d"},
		{"map with string keys", tMap(tVarchar, tInteger), stringIntMap(),
			`'{"a":1,"b":null}'::json`, "{\"a\":1,\"b\":null}", "7b2261223a312c2262223a6e756c6c7d"},
		{"map with int keys", tMap(tInteger, tVarchar), intStringMap(),
			`'[{"key":1,"value":"x"}]'::json`, "[{\"key\":1,\"value\":\"x\"}]", "5b7b226b6579223a312c2276616c7565223a2278227d5d"},
		{"union", tUnion(field("i", tInteger), field("s", tVarchar)), unionArr(),
			`'"u"'::json`, "\"u\"", "227522"},
		{"struct of scalars", tStruct(field("b", tBool), field("d", tDecimal(4, 2)), field("f", tDouble),
			field("g", tDouble), field("blob", tBlob), field("day", tDate), field("iv", tInterval), field("j", tJSON),
			field("ts", tTimestampTZ), field("e", tEnum), field("u", tUBigInt)),
			structArr([]string{"b", "d", "f", "g", "blob", "day", "iv", "j", "ts", "e", "u"}, boolArr(true),
				decArr(4, 2, "-150"), f64Arr(1e20), f64Arr(math.Inf(-1)), binArr("5c00"), dateArr(days1BC),
				intervalArr(0, 1, 1), strArr(`{"z": [true]}`), tsArr(arrow.Microsecond, "Etc/UTC", 0),
				enumArr([]string{"x"}, 0), u64Arr(math.MaxUint64)),
			`'{"b":true,"d":-1.50,"f":1e+20,"g":"-Infinity","blob":"\\x5c00","day":"0001-01-01 BC","iv":"1 day 00:00:00.000001","j":{"z": [true]},"ts":"1970-01-01 00:00:00+00","e":"x","u":18446744073709551615}'::json`,
			"{\"b\":true,\"d\":-1.50,\"f\":1e+20,\"g\":\"-Infinity\",\"blob\":\"\\\\x5c00\",\"day\":\"0001-01-01 BC\",\"iv\":\"1 day 00:00:00.000001\",\"j\":{\"z\": [true]},\"ts\":\"1970-01-01 00:00:00+00\",\"e\":\"x\",\"u\":18446744073709551615}", "7b2262223a747275652c2264223a2d312e35302c2266223a31652b32302c2267223a222d496e66696e697479222c22626c6f62223a225c5c7835633030222c22646179223a22303030312d30312d3031204243222c226976223a2231206461792030303a30303a30302e303030303031222c226a223a7b227a223a205b747275655d7d2c227473223a22313937302d30312d30312030303a30303a30302b3030222c2265223a2278222c2275223a31383434363734343037333730393535313631357d"},
	}
}

func field(name string, t sqltype.Type) sqltype.Field {
	return sqltype.Field{Name: name, Type: t}
}

func structArr(names []string, cols ...arrow.Array) arrow.Array {
	s, err := array.NewStructArray(cols, names)
	if err != nil {
		panic(err)
	}
	return s
}

// stringIntMap builds MAP {'a': 1, 'b': NULL}.
func stringIntMap() arrow.Array {
	b := array.NewMapBuilder(mem(), arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, false)
	defer b.Release()
	keys, items := b.KeyBuilder().(*array.StringBuilder), b.ItemBuilder().(*array.Int32Builder)
	b.Append(true)
	keys.Append("a")
	items.Append(1)
	keys.Append("b")
	items.AppendNull()
	return b.NewArray()
}

// intStringMap builds MAP {1: 'x'}.
func intStringMap() arrow.Array {
	b := array.NewMapBuilder(mem(), arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String, false)
	defer b.Release()
	b.Append(true)
	b.KeyBuilder().(*array.Int32Builder).Append(1)
	b.ItemBuilder().(*array.StringBuilder).Append("x")
	return b.NewArray()
}

// unionArr builds a sparse UNION(i INTEGER, s VARCHAR) holding s = 'u'.
func unionArr() arrow.Array {
	u, err := array.NewSparseUnionFromArraysWithFields(i8Arr(1),
		[]arrow.Array{i32ArrN([]int32{0}, []bool{false}), strArr("u")}, []string{"i", "s"})
	if err != nil {
		panic(err)
	}
	return u
}
