package pgcodec

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

// scalarTextEncoder returns the format-0 encoder of a type that is neither
// a list nor nested, or of an int2vector or oidvector.
func scalarTextEncoder(t sqltype.Type) Encoder {
	if _, ok := vectorOID(t); ok {
		return vectorTextEncoder(*t.Elem)
	}
	switch {
	case t.IsMoney():
		return moneyTextEncoder(int(t.Scale))
	case t.IsJSONB():
		return textJSONB
	}
	switch t.ID {
	case sqltype.Decimal:
		return decimalTextEncoder(int(t.Scale))
	case sqltype.Timestamp, sqltype.TimestampS, sqltype.TimestampMS,
		sqltype.TimestampNS, sqltype.TimestampTZ:
		return timestampTextEncoder(t.ID)
	case sqltype.Varchar, sqltype.Enum:
		return textString
	}
	if enc := intTextEncoder(t.ID); enc != nil {
		return enc
	}
	if enc := otherTextEncoder(t.ID); enc != nil {
		return enc
	}
	return textAny
}

// intTextEncoder returns the format-0 encoder of an integer type, or nil.
func intTextEncoder(id sqltype.ID) Encoder {
	switch id {
	case sqltype.TinyInt:
		return textInt8
	case sqltype.SmallInt:
		return textInt16
	case sqltype.Integer:
		return textInt32
	case sqltype.BigInt:
		return textInt64
	case sqltype.UTinyInt:
		return textUint8
	case sqltype.USmallInt:
		return textUint16
	case sqltype.UInteger:
		return textUint32
	case sqltype.UBigInt:
		return textUint64
	case sqltype.HugeInt:
		return textHugeInt
	case sqltype.UHugeInt:
		return textUHugeInt
	}
	return nil
}

// otherTextEncoder returns the format-0 encoder of the remaining scalar
// types, or nil for a type pgcodec does not know.
func otherTextEncoder(id sqltype.ID) Encoder {
	switch id {
	case sqltype.Boolean:
		return textBool
	case sqltype.Float:
		return textFloat32
	case sqltype.Double:
		return textFloat64
	case sqltype.BigNum:
		return textBigNum
	case sqltype.UUID:
		return textUUID
	case sqltype.Blob:
		return textBytea
	case sqltype.Bit:
		return textBit
	case sqltype.Date:
		return textDate
	case sqltype.Time:
		return textTime
	case sqltype.TimeTZ:
		return textTimeTZ
	case sqltype.Interval:
		return textInterval
	}
	return nil
}

func textBool(dst []byte, arr arrow.Array, i int) []byte {
	if boolAt(arr, i) {
		return append(dst, 't')
	}
	return append(dst, 'f')
}

func textInt8(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendInt(dst, int64(arr.(*array.Int8).Value(i)), 10)
}

func textInt16(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendInt(dst, int64(arr.(*array.Int16).Value(i)), 10)
}

func textInt32(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendInt(dst, int64(arr.(*array.Int32).Value(i)), 10)
}

func textInt64(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendInt(dst, arr.(*array.Int64).Value(i), 10)
}

func textUint8(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendUint(dst, uint64(arr.(*array.Uint8).Value(i)), 10)
}

func textUint16(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendUint(dst, uint64(arr.(*array.Uint16).Value(i)), 10)
}

func textUint32(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendUint(dst, uint64(arr.(*array.Uint32).Value(i)), 10)
}

func textUint64(dst []byte, arr arrow.Array, i int) []byte {
	return strconv.AppendUint(dst, arr.(*array.Uint64).Value(i), 10)
}

func textFloat32(dst []byte, arr arrow.Array, i int) []byte {
	return appendFloat4(dst, arr.(*array.Float32).Value(i))
}

func textFloat64(dst []byte, arr arrow.Array, i int) []byte {
	return appendFloat8(dst, arr.(*array.Float64).Value(i))
}

// textString encodes VARCHAR, JSON and ENUM values, whose text is their
// bytes.
func textString(dst []byte, arr arrow.Array, i int) []byte {
	return append(dst, stringAt(arr, i)...)
}

func textAny(dst []byte, arr arrow.Array, i int) []byte {
	return append(dst, anyText(arr, i)...)
}

// textUUID encodes a UUID, which DuckDB sends as its canonical text unless
// arrow_lossless_conversion makes it 16 big-endian bytes.
func textUUID(dst []byte, arr arrow.Array, i int) []byte {
	if a, ok := storageOf(arr).(*array.FixedSizeBinary); ok {
		return appendUUID(dst, a.Value(i))
	}
	return append(dst, stringAt(arr, i)...)
}

// textBytea encodes a BLOB in Postgres' hex format.
func textBytea(dst []byte, arr arrow.Array, i int) []byte {
	return appendByteaHex(dst, bytesAt(arr, i))
}

const hexDigits = "0123456789abcdef"

// appendByteaHex appends b as Postgres' bytea hex text, "\x" and then two
// lower-case hex digits per byte.
func appendByteaHex(dst []byte, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}
