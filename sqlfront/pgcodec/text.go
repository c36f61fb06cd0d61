package pgcodec

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/storage"
)

// scalarTextEncoder returns the format-0 encoder of a type that is neither
// a list nor nested, or of an int2vector or oidvector.
func scalarTextEncoder(t storage.Type) Encoder {
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
	case storage.TypeDecimal:
		return decimalTextEncoder(int(t.Scale))
	case storage.TypeTimestamp, storage.TypeTimestampS, storage.TypeTimestampMS,
		storage.TypeTimestampNS, storage.TypeTimestampTZ:
		return timestampTextEncoder(t.ID)
	case storage.TypeVarchar, storage.TypeEnum:
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
func intTextEncoder(id storage.TypeID) Encoder {
	switch id {
	case storage.TypeTinyInt:
		return textInt8
	case storage.TypeSmallInt:
		return textInt16
	case storage.TypeInteger:
		return textInt32
	case storage.TypeBigInt:
		return textInt64
	case storage.TypeUTinyInt:
		return textUint8
	case storage.TypeUSmallInt:
		return textUint16
	case storage.TypeUInteger:
		return textUint32
	case storage.TypeUBigInt:
		return textUint64
	case storage.TypeHugeInt:
		return textHugeInt
	case storage.TypeUHugeInt:
		return textUHugeInt
	}
	return nil
}

// otherTextEncoder returns the format-0 encoder of the remaining scalar
// types, or nil for a type pgcodec does not know.
func otherTextEncoder(id storage.TypeID) Encoder {
	switch id {
	case storage.TypeBoolean:
		return textBool
	case storage.TypeFloat:
		return textFloat32
	case storage.TypeDouble:
		return textFloat64
	case storage.TypeBigNum:
		return textBigNum
	case storage.TypeUUID:
		return textUUID
	case storage.TypeBlob:
		return textBytea
	case storage.TypeBit:
		return textBit
	case storage.TypeDate:
		return textDate
	case storage.TypeTime:
		return textTime
	case storage.TypeTimeTZ:
		return textTimeTZ
	case storage.TypeInterval:
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
