package pgcodec

// duckTypes are the DuckDB types that hold the values of Postgres types a
// client may declare for a parameter. A parameter with a declared type is
// cast to it, so that DuckDB types what the parameter feeds (as Postgres
// does) instead of leaving a bare $1 unknown.
var duckTypes = map[uint32]string{
	OIDBool: "BOOLEAN", OIDBytea: "BLOB", OIDName: "VARCHAR", OIDInt8: "BIGINT", OIDInt2: "SMALLINT",
	OIDInt4: "INTEGER", OIDText: "VARCHAR", OIDOID: "BIGINT", OIDJSON: "JSON", OIDFloat4: "REAL",
	OIDFloat8: "DOUBLE", OIDBPChar: "VARCHAR", OIDVarchar: "VARCHAR", OIDDate: "DATE", OIDTime: "TIME",
	OIDTimestamp: "TIMESTAMP", OIDTimestampTZ: "TIMESTAMPTZ", OIDInterval: "INTERVAL", OIDUUID: "UUID",
	OIDJSONB: "JSON", OIDNumeric: "DECIMAL(38,10)",
	OIDBoolArray: "BOOLEAN[]", OIDInt2Array: "SMALLINT[]", OIDInt4Array: "INTEGER[]", OIDInt8Array: "BIGINT[]",
	OIDTextArray: "VARCHAR[]", OIDVarcharArray: "VARCHAR[]", OIDFloat4Array: "REAL[]", OIDFloat8Array: "DOUBLE[]",
	OIDDateArray: "DATE[]", OIDTimestampArray: "TIMESTAMP[]", OIDTimestampTZArray: "TIMESTAMPTZ[]",
	OIDUUIDArray: "UUID[]", OIDNumericArray: "DECIMAL(38,10)[]",
}

// DuckDBType is the DuckDB type a parameter declared as oid is cast to, or
// "" for none (unknown, or a type without a faithful DuckDB counterpart).
func DuckDBType(oid uint32) string { return duckTypes[oid] }
