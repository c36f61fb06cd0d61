// Package pgcodec turns DuckDB result columns, delivered as Apache Arrow
// arrays, into Postgres wire values in text and binary format, and decodes
// the parameters of a Bind message into values DuckDB can bind.
//
// Values are presented as PostgreSQL 15 presents them with DateStyle
// 'ISO, MDY', IntervalStyle postgres and extra_float_digits 1; timestamptz
// in the time zone DuckDB labels its Arrow column with (the session's).
// Encoders are chosen once per column and append into a caller-owned
// buffer, so encoding the common scalar types allocates nothing per value.
package pgcodec

import "github.com/mallard/mallard/sqltype"

// PGType is the Postgres type a DuckDB type is presented as.
type PGType struct {
	// OID is the pg_type OID sent in RowDescription.
	OID uint32
	// Typmod is the type modifier sent in RowDescription; -1 if none.
	Typmod int32
	// Size is pg_type.typlen: the fixed size in bytes, or -1 if variable.
	Size int16
	// Name is pg_type.typname, such as "int4" or "_int4" for int4[].
	Name string
}

// hugeIntPrecision is the numeric precision HUGEINT and UHUGEINT are
// presented with: both hold up to 39 decimal digits, one more than
// DuckDB's DECIMAL maximum of 38.
const hugeIntPrecision = 39

// simpleOIDs is a read-only table of the DuckDB types whose presentation
// depends on nothing but their TypeID.
var simpleOIDs = map[sqltype.ID]uint32{
	sqltype.Boolean: OIDBool, sqltype.TinyInt: OIDInt2,
	sqltype.UTinyInt: OIDInt2, sqltype.SmallInt: OIDInt2,
	sqltype.USmallInt: OIDInt4, sqltype.Integer: OIDInt4,
	sqltype.UInteger: OIDInt8, sqltype.BigInt: OIDInt8,
	sqltype.Float: OIDFloat4, sqltype.Double: OIDFloat8,
	sqltype.Enum: OIDText, sqltype.UUID: OIDUUID,
	sqltype.Blob: OIDBytea, sqltype.Bit: OIDVarbit,
	sqltype.Date: OIDDate, sqltype.Time: OIDTime,
	sqltype.TimeTZ: OIDTimeTZ, sqltype.Timestamp: OIDTimestamp,
	sqltype.TimestampS: OIDTimestamp, sqltype.TimestampMS: OIDTimestamp,
	sqltype.TimestampNS: OIDTimestamp, sqltype.TimestampTZ: OIDTimestampTZ,
	sqltype.Interval: OIDInterval, sqltype.BigNum: OIDNumeric,
	sqltype.Struct: OIDJSON, sqltype.Map: OIDJSON,
	sqltype.Union: OIDJSON,
}

// aliasOIDs is a read-only table of the VARCHAR aliases storage registers
// for Postgres types whose values it holds as text, which are presented as
// those types. The reg* types' binary format is an OID, which their names
// do not carry: they are sent as their text in either format.
var aliasOIDs = map[string]uint32{
	sqltype.AliasName: OIDName, sqltype.AliasChar: OIDChar, sqltype.AliasVarchar: OIDVarchar,
	sqltype.AliasBPChar: OIDBPChar, sqltype.AliasJSONB: OIDJSONB, sqltype.AliasRegClass: OIDRegClass,
	sqltype.AliasRegType: OIDRegType, sqltype.AliasRegProc: OIDRegProc, sqltype.AliasRegNamespace: OIDRegNspace,
}

// TypeFor returns the Postgres type a column of DuckDB type t is presented
// as. Integers become the smallest Postgres integer that holds them, and
// UBIGINT, HUGEINT and UHUGEINT numeric(20, 0), numeric(39, 0) and
// numeric(39, 0); BIT becomes varbit, ENUM text, the VARCHAR aliases
// storage registers name, "char", varchar, bpchar, jsonb, regclass,
// regtype, regproc and regnamespace, its DECIMAL alias money, and lists
// of its vector element aliases int2vector and oidvector. Other lists and
// fixed-size arrays of a scalar type become that type's Postgres array;
// every other nested type becomes json. Types with no Postgres counterpart
// (NULL, ANY, invalid) become text, as Postgres presents an untyped
// parameter.
func TypeFor(t sqltype.Type) PGType {
	if oid, ok := vectorOID(t); ok {
		info := scalars[oid]
		return PGType{OID: oid, Typmod: -1, Size: info.size, Name: info.name}
	}
	if elem, ok := arrayElem(t); ok {
		oid, typmod := scalarOID(elem)
		info := scalars[oid]
		return PGType{OID: info.arrayOID, Typmod: typmod, Size: -1, Name: "_" + info.name}
	}
	oid, typmod := scalarOID(t)
	info := scalars[oid]
	return PGType{OID: oid, Typmod: typmod, Size: info.size, Name: info.name}
}

// SupportsBinary reports whether NewEncoder can encode t in binary format;
// when it is false the server must send that column in text format. Every
// well-formed type can be (text, json and the types presented as text send
// their text, as Postgres does), so it is false only for a malformed type.
func SupportsBinary(t sqltype.Type) bool {
	_, err := NewEncoder(t, FormatBinary)
	return err == nil
}

// arrayElem returns the element type of t if t is presented as a Postgres
// array: a LIST or ARRAY whose element is neither nested nor itself a list,
// and that is not an int2vector or oidvector.
func arrayElem(t sqltype.Type) (sqltype.Type, bool) {
	if t.ID != sqltype.List && t.ID != sqltype.Array || t.Elem == nil {
		return sqltype.Type{}, false
	}
	if _, ok := vectorOID(t); ok {
		return sqltype.Type{}, false
	}
	if scalarOIDOf(*t.Elem) == OIDJSON && !t.Elem.IsJSON() {
		return sqltype.Type{}, false
	}
	return *t.Elem, true
}

// scalarOID returns the OID and typmod t is presented with, treating any
// LIST or ARRAY as json.
func scalarOID(t sqltype.Type) (uint32, int32) {
	switch t.ID {
	case sqltype.UBigInt:
		return OIDNumeric, numericTypmod(20, 0)
	case sqltype.HugeInt, sqltype.UHugeInt:
		return OIDNumeric, numericTypmod(hugeIntPrecision, 0)
	case sqltype.Decimal:
		if t.IsMoney() {
			return OIDMoney, -1
		}
		return OIDNumeric, numericTypmod(int32(t.Width), int32(t.Scale))
	}
	return scalarOIDOf(t), -1
}

// scalarOIDOf returns the OID of t, treating any LIST or ARRAY as json.
func scalarOIDOf(t sqltype.Type) uint32 {
	switch t.ID {
	case sqltype.Varchar:
		if t.IsJSON() {
			return OIDJSON
		}
		if oid, ok := aliasOIDs[t.Alias]; ok {
			return oid
		}
		return OIDText
	case sqltype.Decimal:
		if t.IsMoney() {
			return OIDMoney
		}
		return OIDNumeric
	case sqltype.UBigInt, sqltype.HugeInt, sqltype.UHugeInt:
		return OIDNumeric
	case sqltype.List, sqltype.Array:
		return OIDJSON
	}
	if oid, ok := simpleOIDs[t.ID]; ok {
		return oid
	}
	return OIDText
}

// numericTypmod encodes numeric(precision, scale) as Postgres does.
func numericTypmod(precision, scale int32) int32 {
	return (precision<<16 | scale) + 4
}
