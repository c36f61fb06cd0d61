package pgcodec

import (
	"strconv"
	"strings"
)

// The Postgres type OIDs pgcodec presents and decodes. The values are
// PostgreSQL's own (pg_type.oid), which never change between releases.
const (
	OIDBool             uint32 = 16
	OIDBytea            uint32 = 17
	OIDChar             uint32 = 18
	OIDName             uint32 = 19
	OIDInt8             uint32 = 20
	OIDInt2             uint32 = 21
	OIDInt2Vector       uint32 = 22
	OIDInt4             uint32 = 23
	OIDRegProc          uint32 = 24
	OIDText             uint32 = 25
	OIDOID              uint32 = 26
	OIDOIDVector        uint32 = 30
	OIDJSON             uint32 = 114
	OIDJSONArray        uint32 = 199
	OIDFloat4           uint32 = 700
	OIDFloat8           uint32 = 701
	OIDUnknown          uint32 = 705
	OIDMoney            uint32 = 790
	OIDMoneyArray       uint32 = 791
	OIDBoolArray        uint32 = 1000
	OIDByteaArray       uint32 = 1001
	OIDCharArray        uint32 = 1002
	OIDNameArray        uint32 = 1003
	OIDInt2Array        uint32 = 1005
	OIDInt4Array        uint32 = 1007
	OIDTextArray        uint32 = 1009
	OIDBPCharArray      uint32 = 1014
	OIDVarcharArray     uint32 = 1015
	OIDInt8Array        uint32 = 1016
	OIDFloat4Array      uint32 = 1021
	OIDFloat8Array      uint32 = 1022
	OIDBPChar           uint32 = 1042
	OIDVarchar          uint32 = 1043
	OIDDate             uint32 = 1082
	OIDTime             uint32 = 1083
	OIDTimestamp        uint32 = 1114
	OIDTimestampArray   uint32 = 1115
	OIDDateArray        uint32 = 1182
	OIDTimeArray        uint32 = 1183
	OIDTimestampTZ      uint32 = 1184
	OIDTimestampTZArray uint32 = 1185
	OIDInterval         uint32 = 1186
	OIDIntervalArray    uint32 = 1187
	OIDNumericArray     uint32 = 1231
	OIDTimeTZ           uint32 = 1266
	OIDTimeTZArray      uint32 = 1270
	OIDBit              uint32 = 1560
	OIDBitArray         uint32 = 1561
	OIDVarbit           uint32 = 1562
	OIDVarbitArray      uint32 = 1563
	OIDNumeric          uint32 = 1700
	OIDRegClass         uint32 = 2205
	OIDRegType          uint32 = 2206
	OIDUUID             uint32 = 2950
	OIDUUIDArray        uint32 = 2951
	OIDJSONB            uint32 = 3802
	OIDJSONBArray       uint32 = 3807
	OIDRegNspace        uint32 = 4089
)

// scalarInfo describes one scalar Postgres type: its name, its fixed size
// (-1 for variable length) and the OID of its one-dimensional array type.
type scalarInfo struct {
	name     string
	size     int16
	arrayOID uint32
}

// scalars is a read-only table of the scalar types pgcodec knows, keyed by OID.
var scalars = map[uint32]scalarInfo{
	OIDBool:        {"bool", 1, OIDBoolArray},
	OIDBytea:       {"bytea", -1, OIDByteaArray},
	OIDChar:        {"char", 1, OIDCharArray},
	OIDName:        {"name", 64, OIDNameArray},
	OIDInt8:        {"int8", 8, OIDInt8Array},
	OIDInt2:        {"int2", 2, OIDInt2Array},
	OIDInt2Vector:  {"int2vector", -1, 1006},
	OIDInt4:        {"int4", 4, OIDInt4Array},
	OIDRegProc:     {"regproc", 4, 1008},
	OIDText:        {"text", -1, OIDTextArray},
	OIDOID:         {"oid", 4, 1028},
	OIDOIDVector:   {"oidvector", -1, 1013},
	OIDJSON:        {"json", -1, OIDJSONArray},
	OIDFloat4:      {"float4", 4, OIDFloat4Array},
	OIDFloat8:      {"float8", 8, OIDFloat8Array},
	OIDUnknown:     {"unknown", -2, 0},
	OIDMoney:       {"money", 8, OIDMoneyArray},
	OIDBPChar:      {"bpchar", -1, OIDBPCharArray},
	OIDVarchar:     {"varchar", -1, OIDVarcharArray},
	OIDDate:        {"date", 4, OIDDateArray},
	OIDTime:        {"time", 8, OIDTimeArray},
	OIDTimestamp:   {"timestamp", 8, OIDTimestampArray},
	OIDTimestampTZ: {"timestamptz", 8, OIDTimestampTZArray},
	OIDInterval:    {"interval", 16, OIDIntervalArray},
	OIDTimeTZ:      {"timetz", 12, OIDTimeTZArray},
	OIDBit:         {"bit", -1, OIDBitArray},
	OIDVarbit:      {"varbit", -1, OIDVarbitArray},
	OIDNumeric:     {"numeric", -1, OIDNumericArray},
	OIDRegClass:    {"regclass", 4, 2210},
	OIDRegType:     {"regtype", 4, 2211},
	OIDUUID:        {"uuid", 16, OIDUUIDArray},
	OIDJSONB:       {"jsonb", -1, OIDJSONBArray},
	OIDRegNspace:   {"regnamespace", 4, 4090},
}

// arrayElems is a read-only table from an array type's OID to its element
// type's OID, for the array types DecodeParam accepts.
var arrayElems = map[uint32]uint32{
	OIDBoolArray: OIDBool, OIDByteaArray: OIDBytea, OIDCharArray: OIDChar,
	OIDNameArray: OIDName, OIDInt2Array: OIDInt2,
	OIDInt4Array: OIDInt4, OIDTextArray: OIDText, OIDBPCharArray: OIDBPChar,
	OIDVarcharArray: OIDVarchar, OIDInt8Array: OIDInt8, OIDFloat4Array: OIDFloat4,
	OIDFloat8Array: OIDFloat8, OIDTimestampArray: OIDTimestamp, OIDDateArray: OIDDate,
	OIDTimeArray: OIDTime, OIDTimestampTZArray: OIDTimestampTZ, OIDIntervalArray: OIDInterval,
	OIDNumericArray: OIDNumeric, OIDTimeTZArray: OIDTimeTZ, OIDBitArray: OIDBit,
	OIDVarbitArray: OIDVarbit, OIDUUIDArray: OIDUUID, OIDJSONArray: OIDJSON,
	OIDJSONBArray: OIDJSONB,
}

// typeName returns the Postgres name of oid for messages, such as "int4"
// or "int4[]".
func typeName(oid uint32) string {
	if s, ok := scalars[oid]; ok {
		return s.name
	}
	if elem, ok := arrayElems[oid]; ok {
		return scalars[elem].name + "[]"
	}
	return "type " + strconv.FormatUint(uint64(oid), 10)
}

// OIDByName returns the OID of the type Postgres' parser names name (int4,
// float8, text, int4[]), if pgcodec knows it.
func OIDByName(name string) (uint32, bool) {
	elem, array := strings.CutSuffix(name, "[]")
	for oid, info := range scalars {
		if info.name == elem {
			if array {
				return info.arrayOID, info.arrayOID != 0
			}
			return oid, true
		}
	}
	return 0, false
}
