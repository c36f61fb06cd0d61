package pgcodec

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

// scalarBinaryEncoder returns the format-1 encoder of a type that is
// neither a list nor nested, or of an int2vector or oidvector.
func scalarBinaryEncoder(t sqltype.Type) Encoder {
	if oid, ok := vectorOID(t); ok {
		return vectorBinaryEncoder(oid, *t.Elem)
	}
	switch {
	case t.IsMoney():
		return binaryMoney
	case t.IsJSONB():
		return binaryJSONB
	}
	switch t.ID {
	case sqltype.Decimal:
		return decimalBinaryEncoder(int(t.Scale))
	case sqltype.Timestamp, sqltype.TimestampS, sqltype.TimestampMS,
		sqltype.TimestampNS, sqltype.TimestampTZ:
		return timestampBinaryEncoder(t.ID)
	}
	if enc := intBinaryEncoder(t.ID); enc != nil {
		return enc
	}
	if enc := otherBinaryEncoder(t.ID); enc != nil {
		return enc
	}
	// text, json and unknown types: the binary format is the text.
	return scalarTextEncoder(t)
}

// intBinaryEncoder returns the format-1 encoder of an integer type, or nil.
func intBinaryEncoder(id sqltype.ID) Encoder {
	switch id {
	case sqltype.TinyInt:
		return binaryInt8
	case sqltype.SmallInt:
		return binaryInt16
	case sqltype.Integer:
		return binaryInt32
	case sqltype.BigInt:
		return binaryInt64
	case sqltype.UTinyInt:
		return binaryUint8
	case sqltype.USmallInt:
		return binaryUint16
	case sqltype.UInteger:
		return binaryUint32
	case sqltype.UBigInt:
		return binaryUint64
	case sqltype.HugeInt:
		return binaryHugeInt
	case sqltype.UHugeInt:
		return binaryUHugeInt
	}
	return nil
}

// otherBinaryEncoder returns the format-1 encoder of the remaining scalar
// types whose binary format differs from their text, or nil.
func otherBinaryEncoder(id sqltype.ID) Encoder {
	switch id {
	case sqltype.Boolean:
		return binaryBool
	case sqltype.Float:
		return binaryFloat32
	case sqltype.Double:
		return binaryFloat64
	case sqltype.BigNum:
		return binaryBigNum
	case sqltype.UUID:
		return binaryUUID
	case sqltype.Blob:
		return binaryBytea
	case sqltype.Bit:
		return binaryBit
	case sqltype.Date:
		return binaryDate
	case sqltype.Time:
		return binaryTime
	case sqltype.TimeTZ:
		return binaryTimeTZ
	case sqltype.Interval:
		return binaryInterval
	}
	return nil
}

func binaryBool(dst []byte, arr arrow.Array, i int) []byte {
	if boolAt(arr, i) {
		return append(dst, 1)
	}
	return append(dst, 0)
}

func binaryInt8(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint16(dst, uint16(arr.(*array.Int8).Value(i)))
}

func binaryInt16(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint16(dst, uint16(arr.(*array.Int16).Value(i)))
}

func binaryInt32(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint32(dst, uint32(arr.(*array.Int32).Value(i)))
}

func binaryInt64(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(arr.(*array.Int64).Value(i)))
}

func binaryUint8(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint16(dst, uint16(arr.(*array.Uint8).Value(i)))
}

func binaryUint16(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint32(dst, uint32(arr.(*array.Uint16).Value(i)))
}

func binaryUint32(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(arr.(*array.Uint32).Value(i)))
}

// binaryFloat32 encodes a FLOAT as its IEEE bits, with every NaN sent as
// the quiet NaN Postgres itself sends.
func binaryFloat32(dst []byte, arr arrow.Array, i int) []byte {
	f := arr.(*array.Float32).Value(i)
	if f != f {
		return binary.BigEndian.AppendUint32(dst, 0x7fc00000)
	}
	return binary.BigEndian.AppendUint32(dst, math.Float32bits(f))
}

// binaryFloat64 encodes a DOUBLE as binaryFloat32 does a FLOAT.
func binaryFloat64(dst []byte, arr arrow.Array, i int) []byte {
	f := arr.(*array.Float64).Value(i)
	if f != f {
		return binary.BigEndian.AppendUint64(dst, 0x7ff8000000000000)
	}
	return binary.BigEndian.AppendUint64(dst, math.Float64bits(f))
}

func binaryBytea(dst []byte, arr arrow.Array, i int) []byte {
	return append(dst, bytesAt(arr, i)...)
}

// binaryUUID encodes a UUID as its 16 bytes. Text that is not a UUID,
// which DuckDB never produces, is sent as 16 zero bytes.
func binaryUUID(dst []byte, arr arrow.Array, i int) []byte {
	if a, ok := storageOf(arr).(*array.FixedSizeBinary); ok {
		return append(dst, a.Value(i)...)
	}
	var u [16]byte
	parseUUID(&u, stringAt(arr, i))
	return append(dst, u[:]...)
}

// binaryDate encodes a DATE as int32 days since 2000-01-01, with
// Postgres' infinities: the int32 maximum and minimum.
func binaryDate(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint32(dst, uint32(pgDate(int64(arr.(*array.Date32).Value(i)))))
}

// pgDate is the binary date of DuckDB's days since 1970: days since
// 2000-01-01, with Postgres' infinities, the int32 maximum and minimum.
func pgDate(days int64) int32 {
	switch infinity(days, math.MaxInt32) {
	case 1:
		return math.MaxInt32
	case -1:
		return math.MinInt32
	}
	return int32(clamp(days-pgEpochDays, math.MinInt32+1, math.MaxInt32-1))
}

func binaryTime(dst []byte, arr arrow.Array, i int) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(arr.(*array.Time64).Value(i)))
}

// binaryTimeTZ encodes a TIMETZ as int64 microseconds and int32 offset in
// seconds west of UTC, Postgres' sign convention.
func binaryTimeTZ(dst []byte, arr arrow.Array, i int) []byte {
	us, east := timeTZAt(arr, i)
	dst = binary.BigEndian.AppendUint64(dst, uint64(us))
	return binary.BigEndian.AppendUint32(dst, uint32(-east))
}

// timestampBinaryEncoder returns the binary encoder of a timestamp type:
// int64 microseconds since 2000-01-01, with Postgres' infinities, the
// int64 maximum and minimum.
func timestampBinaryEncoder(id sqltype.ID) Encoder {
	unit := timestampUnit(id)
	return func(dst []byte, arr arrow.Array, i int) []byte {
		return binary.BigEndian.AppendUint64(dst, uint64(pgTimestamp(int64(arr.(*array.Timestamp).Value(i)), unit)))
	}
}

// pgTimestamp is the binary timestamp of DuckDB's v in unit.
func pgTimestamp(v int64, unit arrow.TimeUnit) int64 {
	us, inf := timestampMicros(v, unit)
	switch inf {
	case 1:
		return math.MaxInt64
	case -1:
		return math.MinInt64
	}
	return clamp(us, math.MinInt64+1+pgEpochMicros, math.MaxInt64) - pgEpochMicros
}

// binaryInterval encodes an INTERVAL as int64 microseconds, int32 days and
// int32 months.
func binaryInterval(dst []byte, arr arrow.Array, i int) []byte {
	months, days, us := intervalAt(arr, i)
	dst = binary.BigEndian.AppendUint64(dst, uint64(us))
	dst = binary.BigEndian.AppendUint32(dst, uint32(days))
	return binary.BigEndian.AppendUint32(dst, uint32(months))
}

func clamp(v, lo, hi int64) int64 {
	return min(max(v, lo), hi)
}
