package pgcodec

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/mallard/mallard/sqlstate"
)

// DecodeParam turns a Bind parameter of type oid in format 0 (text) or 1
// (binary) into a value to bind in DuckDB; data nil is SQL NULL. The
// result is one of nil, bool, int16, int32, int64, float32, float64,
// string or []byte, and never aliases data.
//
// Text parameters come back as their string, with five exceptions that
// DuckDB would otherwise reject or misread: bytea is decoded from
// Postgres' hex or escape format to []byte; bool accepts Postgres'
// spellings (on, off, yes, no, 1, 0 and prefixes) and comes back as "true"
// or "false"; a date or timestamp ending in " BC" is rewritten to DuckDB's
// "YYYY-MM-DD (BC)" form, since DuckDB silently reads a trailing BC as AD;
// an interval loses the "+" signs Postgres writes ("-1 days +02:00:00"),
// which DuckDB rejects; and an array literal ('{1,2,NULL}') becomes a
// DuckDB list literal ('["1", "2", NULL]'; for json[] a JSON array).
//
// Binary parameters of types with a Go counterpart (bool, int2/4/8, oid,
// float4/8, bytea, and the text types text, varchar, name, "char", bpchar,
// json and unknown) come back natively. date, time, timetz, timestamp,
// timestamptz, interval, numeric, uuid, bit, varbit, jsonb and arrays of
// any of these are decoded and rendered as text that DuckDB casts to the
// matching type.
//
// Malformed input returns a *sqlstate.Error with code 22P03 (binary) or
// 22P02 (text) that names the type and the fault; a binary parameter of a
// type pgcodec does not know returns 0A000 naming the OID.
func DecodeParam(oid uint32, format int16, data []byte) (any, error) {
	if data == nil {
		return nil, nil
	}
	var v any
	var err error
	switch format {
	case FormatText:
		v, err = decodeText(oid, data)
	case FormatBinary:
		if elem, ok := arrayElems[oid]; ok {
			v, err = decodeBinaryArray(oid, elem, data)
		} else {
			v, err = decodeBinary(oid, data)
		}
	default:
		err = sqlstate.New(sqlstate.ProtocolViolation, "unsupported format code %d", format)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// decodeBinary decodes a binary parameter of a scalar type.
func decodeBinary(oid uint32, data []byte) (any, error) {
	switch oid {
	case OIDBool:
		if err := wantLen(oid, data, 1); err != nil {
			return nil, err
		}
		return data[0] != 0, nil
	case OIDInt2, OIDInt4, OIDInt8, OIDOID, OIDFloat4, OIDFloat8:
		return decodeBinaryNumber(oid, data)
	case OIDBytea:
		return append([]byte{}, data...), nil
	case OIDText, OIDVarchar, OIDName, OIDChar, OIDBPChar, OIDJSON, OIDUnknown:
		return utf8Text(oid, data, binaryError)
	case OIDJSONB:
		if len(data) == 0 || data[0] != 1 {
			return nil, binaryError(oid, "unsupported jsonb version")
		}
		return utf8Text(oid, data[1:], binaryError)
	}
	b, err := decodeBinaryAsText(oid, data)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// decodeBinaryNumber decodes the fixed-size binary integers and floats.
func decodeBinaryNumber(oid uint32, data []byte) (any, error) {
	size := int(scalars[oid].size)
	if err := wantLen(oid, data, size); err != nil {
		return nil, err
	}
	switch oid {
	case OIDInt2:
		return int16(binary.BigEndian.Uint16(data)), nil
	case OIDInt4:
		return int32(binary.BigEndian.Uint32(data)), nil
	case OIDOID:
		return int64(binary.BigEndian.Uint32(data)), nil
	case OIDFloat4:
		return math.Float32frombits(binary.BigEndian.Uint32(data)), nil
	case OIDFloat8:
		return math.Float64frombits(binary.BigEndian.Uint64(data)), nil
	}
	return int64(binary.BigEndian.Uint64(data)), nil
}

// decodeBinaryAsText decodes a binary parameter of a type that is bound
// to DuckDB as text, returning that text.
func decodeBinaryAsText(oid uint32, data []byte) ([]byte, error) {
	switch oid {
	case OIDDate:
		return decodeBinaryDate(data)
	case OIDTime:
		return decodeBinaryTime(data)
	case OIDTimeTZ:
		return decodeBinaryTimeTZ(data)
	case OIDTimestamp, OIDTimestampTZ:
		return decodeBinaryTimestamp(oid, data)
	case OIDInterval:
		return decodeBinaryInterval(data)
	case OIDNumeric:
		return decodeBinaryNumeric(data)
	case OIDUUID:
		if err := wantLen(oid, data, 16); err != nil {
			return nil, err
		}
		return appendUUID(nil, data), nil
	case OIDBit, OIDVarbit:
		return decodeBinaryBits(oid, data)
	}
	return nil, sqlstate.New(sqlstate.FeatureNotSupported,
		"binary format is not supported for parameters of type OID %d", oid)
}

// wantLen checks that a fixed-size binary value has its size.
func wantLen(oid uint32, data []byte, n int) error {
	if len(data) != n {
		return binaryError(oid, "want %d bytes, got %d", n, len(data))
	}
	return nil
}

// utf8Text returns data as a string if it is valid UTF-8, which DuckDB
// requires of every VARCHAR.
func utf8Text(oid uint32, data []byte, fail func(uint32, string, ...any) error) (string, error) {
	if !utf8.Valid(data) {
		return "", fail(oid, "invalid UTF-8")
	}
	return string(data), nil
}

// binaryError returns the 22P03 error for a malformed binary value of oid.
func binaryError(oid uint32, format string, args ...any) error {
	return sqlstate.New(sqlstate.InvalidBinaryRepresentation,
		"incorrect binary data format for type %s: %s", typeName(oid), fmt.Sprintf(format, args...))
}

// textError returns the 22P02 error for a malformed text value of oid.
func textError(oid uint32, format string, args ...any) error {
	return sqlstate.New(sqlstate.InvalidTextRepresentation,
		"invalid input syntax for type %s: %s", typeName(oid), fmt.Sprintf(format, args...))
}
