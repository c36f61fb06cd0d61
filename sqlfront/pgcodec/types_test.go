package pgcodec_test

import (
	"testing"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

func TestTypeFor(t *testing.T) {
	tests := []struct {
		name string
		typ  sqltype.Type
		want pgcodec.PGType
	}{
		{"boolean", tBool, pgcodec.PGType{OID: 16, Typmod: -1, Size: 1, Name: "bool"}},
		{"tinyint", tTinyInt, pgcodec.PGType{OID: 21, Typmod: -1, Size: 2, Name: "int2"}},
		{"utinyint", tUTinyInt, pgcodec.PGType{OID: 21, Typmod: -1, Size: 2, Name: "int2"}},
		{"smallint", tSmallInt, pgcodec.PGType{OID: 21, Typmod: -1, Size: 2, Name: "int2"}},
		{"usmallint", tUSmallInt, pgcodec.PGType{OID: 23, Typmod: -1, Size: 4, Name: "int4"}},
		{"integer", tInteger, pgcodec.PGType{OID: 23, Typmod: -1, Size: 4, Name: "int4"}},
		{"uinteger", tUInteger, pgcodec.PGType{OID: 20, Typmod: -1, Size: 8, Name: "int8"}},
		{"bigint", tBigInt, pgcodec.PGType{OID: 20, Typmod: -1, Size: 8, Name: "int8"}},
		{"ubigint", tUBigInt, pgcodec.PGType{OID: 1700, Typmod: 20<<16 + 4, Size: -1, Name: "numeric"}},
		{"hugeint", tHugeInt, pgcodec.PGType{OID: 1700, Typmod: 39<<16 + 4, Size: -1, Name: "numeric"}},
		{"uhugeint", tUHugeInt, pgcodec.PGType{OID: 1700, Typmod: 39<<16 + 4, Size: -1, Name: "numeric"}},
		{"decimal", tDecimal(10, 2), pgcodec.PGType{OID: 1700, Typmod: 10<<16 | 2 + 4, Size: -1, Name: "numeric"}},
		{"bignum", tBigNum, pgcodec.PGType{OID: 1700, Typmod: -1, Size: -1, Name: "numeric"}},
		{"float", tFloat, pgcodec.PGType{OID: 700, Typmod: -1, Size: 4, Name: "float4"}},
		{"double", tDouble, pgcodec.PGType{OID: 701, Typmod: -1, Size: 8, Name: "float8"}},
		{"varchar", tVarchar, pgcodec.PGType{OID: 25, Typmod: -1, Size: -1, Name: "text"}},
		{"json", tJSON, pgcodec.PGType{OID: 114, Typmod: -1, Size: -1, Name: "json"}},
		{"enum", tEnum, pgcodec.PGType{OID: 25, Typmod: -1, Size: -1, Name: "text"}},
		{"uuid", tUUID, pgcodec.PGType{OID: 2950, Typmod: -1, Size: 16, Name: "uuid"}},
		{"blob", tBlob, pgcodec.PGType{OID: 17, Typmod: -1, Size: -1, Name: "bytea"}},
		{"bit", tBit, pgcodec.PGType{OID: 1562, Typmod: -1, Size: -1, Name: "varbit"}},
		{"date", tDate, pgcodec.PGType{OID: 1082, Typmod: -1, Size: 4, Name: "date"}},
		{"time", tTime, pgcodec.PGType{OID: 1083, Typmod: -1, Size: 8, Name: "time"}},
		{"timetz", tTimeTZ, pgcodec.PGType{OID: 1266, Typmod: -1, Size: 12, Name: "timetz"}},
		{"timestamp", tTimestamp, pgcodec.PGType{OID: 1114, Typmod: -1, Size: 8, Name: "timestamp"}},
		{"timestamp_s", tTimestampS, pgcodec.PGType{OID: 1114, Typmod: -1, Size: 8, Name: "timestamp"}},
		{"timestamp_ms", tTimestampMS, pgcodec.PGType{OID: 1114, Typmod: -1, Size: 8, Name: "timestamp"}},
		{"timestamp_ns", tTimestampNS, pgcodec.PGType{OID: 1114, Typmod: -1, Size: 8, Name: "timestamp"}},
		{"timestamptz", tTimestampTZ, pgcodec.PGType{OID: 1184, Typmod: -1, Size: 8, Name: "timestamptz"}},
		{"interval", tInterval, pgcodec.PGType{OID: 1186, Typmod: -1, Size: 16, Name: "interval"}},
		{"int list", tList(tInteger), pgcodec.PGType{OID: 1007, Typmod: -1, Size: -1, Name: "_int4"}},
		{"decimal list", tList(tDecimal(4, 2)), pgcodec.PGType{OID: 1231, Typmod: 4<<16 | 2 + 4, Size: -1, Name: "_numeric"}},
		{"fixed array", tArray(tDouble, 3), pgcodec.PGType{OID: 1022, Typmod: -1, Size: -1, Name: "_float8"}},
		{"json list", tList(tJSON), pgcodec.PGType{OID: 199, Typmod: -1, Size: -1, Name: "_json"}},
		{"timetz list", tList(tTimeTZ), pgcodec.PGType{OID: 1270, Typmod: -1, Size: -1, Name: "_timetz"}},
		{"list of lists", tList(tList(tInteger)), pgcodec.PGType{OID: 114, Typmod: -1, Size: -1, Name: "json"}},
		{"int2vector", tInt2Vector, pgcodec.PGType{OID: 22, Typmod: -1, Size: -1, Name: "int2vector"}},
		{"oidvector", tOIDVector, pgcodec.PGType{OID: 30, Typmod: -1, Size: -1, Name: "oidvector"}},
		{"int2vector list", tList(tInt2Vector), pgcodec.PGType{OID: 114, Typmod: -1, Size: -1, Name: "json"}},
		{"list of another smallint alias", tList(sqltype.Type{ID: sqltype.SmallInt, Alias: "other"}),
			pgcodec.PGType{OID: 1005, Typmod: -1, Size: -1, Name: "_int2"}},
		{"list of structs", tList(tStruct(field("a", tInteger))), pgcodec.PGType{OID: 114, Typmod: -1, Size: -1, Name: "json"}},
		{"struct", tStruct(field("a", tInteger)), pgcodec.PGType{OID: 114, Typmod: -1, Size: -1, Name: "json"}},
		{"map", tMap(tVarchar, tInteger), pgcodec.PGType{OID: 114, Typmod: -1, Size: -1, Name: "json"}},
		{"union", tUnion(field("a", tInteger)), pgcodec.PGType{OID: 114, Typmod: -1, Size: -1, Name: "json"}},
		{"bpchar", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasBPChar}, pgcodec.PGType{OID: 1042, Typmod: -1, Size: -1, Name: "bpchar"}},
		{"jsonb", tJSONB, pgcodec.PGType{OID: 3802, Typmod: -1, Size: -1, Name: "jsonb"}},
		{"jsonb list", tList(tJSONB), pgcodec.PGType{OID: 3807, Typmod: -1, Size: -1, Name: "_jsonb"}},
		{"money", tMoney, pgcodec.PGType{OID: 790, Typmod: -1, Size: 8, Name: "money"}},
		{"money list", tList(tMoney), pgcodec.PGType{OID: 791, Typmod: -1, Size: -1, Name: "_money"}},
		{"decimal with another alias", sqltype.Type{ID: sqltype.Decimal, Width: 18, Scale: 2, Alias: "other"},
			pgcodec.PGType{OID: 1700, Typmod: 18<<16 | 2 + 4, Size: -1, Name: "numeric"}},
		{"regclass", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasRegClass}, pgcodec.PGType{OID: 2205, Typmod: -1, Size: 4, Name: "regclass"}},
		{"regtype", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasRegType}, pgcodec.PGType{OID: 2206, Typmod: -1, Size: 4, Name: "regtype"}},
		{"regproc", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasRegProc}, pgcodec.PGType{OID: 24, Typmod: -1, Size: 4, Name: "regproc"}},
		{"regnamespace", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasRegNamespace}, pgcodec.PGType{OID: 4089, Typmod: -1, Size: 4, Name: "regnamespace"}},
		{"null", tSQLNull, pgcodec.PGType{OID: 25, Typmod: -1, Size: -1, Name: "text"}},
		{"any", tAny, pgcodec.PGType{OID: 25, Typmod: -1, Size: -1, Name: "text"}},
		{"invalid", sqltype.Type{}, pgcodec.PGType{OID: 25, Typmod: -1, Size: -1, Name: "text"}},
	}
	for _, tt := range tests {
		if got := pgcodec.TypeFor(tt.typ); got != tt.want {
			t.Errorf("%s: TypeFor = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestNewEncoderErrors(t *testing.T) {
	tests := []struct {
		name     string
		typ      sqltype.Type
		format   int16
		wantCode sqlstate.Code
	}{
		{"bad format", tInteger, 2, sqlstate.ProtocolViolation},
		{"list without element", sqltype.Type{ID: sqltype.List}, 0, sqlstate.InternalError},
		{"map without key", sqltype.Type{ID: sqltype.Map, Elem: &tInteger}, 1, sqlstate.InternalError},
		{"struct with bad field", tStruct(field("a", sqltype.Type{ID: sqltype.Array})), 0, sqlstate.InternalError},
	}
	for _, tt := range tests {
		_, err := pgcodec.NewEncoder(tt.typ, tt.format)
		if got := sqlstate.CodeOf(err); got != tt.wantCode {
			t.Errorf("%s: NewEncoder error %v, want SQLSTATE %s", tt.name, err, tt.wantCode)
		}
	}
}

func TestSupportsBinary(t *testing.T) {
	tests := []struct {
		name string
		typ  sqltype.Type
		want bool
	}{
		{"integer", tInteger, true},
		{"timetz", tTimeTZ, true},
		{"struct", tStruct(field("a", tInteger)), true},
		{"list of bits", tList(tBit), true},
		{"malformed list", sqltype.Type{ID: sqltype.List}, false},
	}
	for _, tt := range tests {
		if got := pgcodec.SupportsBinary(tt.typ); got != tt.want {
			t.Errorf("%s: SupportsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}
