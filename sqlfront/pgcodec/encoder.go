package pgcodec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// The Postgres wire format codes.
const (
	FormatText   int16 = 0
	FormatBinary int16 = 1
)

// Encoder appends the wire bytes of the non-null value at row i of arr
// (without the length prefix) to dst and returns the extended slice. The
// caller sends a NULL row itself (length -1) and never passes one; NULLs
// nested inside a list, struct or map are the encoder's to render.
//
// An Encoder is chosen once per column, holds no state (but the time zone
// a timestamptz encoder last loaded) and may be used from any number of
// goroutines. For the scalar types it allocates
// nothing. It assumes arr has one of the Arrow types DuckDB produces for
// the column's DuckDB type (see NewEncoder) and panics otherwise: that is
// a bug in the caller, not bad data.
type Encoder func(dst []byte, arr arrow.Array, i int) []byte

// NewEncoder returns the encoder for a column of DuckDB type t in format 0
// (text) or 1 (binary), presenting it as TypeFor(t) says.
//
// The encoders expect DuckDB 1.5's Arrow types: the matching integer,
// float and bool arrays; decimal128(38, 0) for HUGEINT and UHUGEINT (whose
// bits are read as unsigned, since DuckDB stores values of 2^127 and above
// there as they are); decimal128(p, s) for DECIMAL (decimal32, decimal64
// and decimal256 also work); utf8 for VARCHAR, JSON and UUID; binary for
// BLOB, BIT (DuckDB's bit layout) and BIGNUM (DuckDB's varint layout);
// date32; time64[us] for TIME and TIMETZ; timestamp in the unit of the
// timestamp type, TIMESTAMP_NS truncated to microseconds; a dictionary of
// strings for ENUM; month_day_nano_interval; list, fixed_size_list, struct,
// map and sparse or dense union for the nested types.
//
// Besides the Arrow types DuckDB produces by default, the encoders accept
// large_utf8, string_view, large_binary, binary_view and large_list (the
// arrow_large_buffer_size and produce_arrow_string_view settings), and the
// fixed_size_binary forms of UUID, HUGEINT, UHUGEINT and TIMETZ and the
// int8 form of BOOLEAN that the arrow_lossless_conversion setting produces. Only that last form keeps a
// TIMETZ's offset: by default DuckDB's Arrow conversion drops it and the
// value is sent as its local time with offset +00.
func NewEncoder(t sqltype.Type, format int16) (Encoder, error) {
	if err := checkType(t); err != nil {
		return nil, err
	}
	switch format {
	case FormatText:
		return textEncoder(t), nil
	case FormatBinary:
		return binaryEncoder(t), nil
	}
	return nil, sqlstate.New(sqlstate.ProtocolViolation, "unsupported format code %d", format)
}

// checkType reports a nested type that lacks the parts its ID requires.
func checkType(t sqltype.Type) error {
	switch t.ID {
	case sqltype.List, sqltype.Array:
		if t.Elem == nil {
			return malformedType(t, "no element type")
		}
		return checkType(*t.Elem)
	case sqltype.Map:
		if t.Elem == nil || t.Key == nil {
			return malformedType(t, "no key or value type")
		}
		if err := checkType(*t.Key); err != nil {
			return err
		}
		return checkType(*t.Elem)
	case sqltype.Struct, sqltype.Union:
		for _, f := range t.Fields {
			if err := checkType(f.Type); err != nil {
				return err
			}
		}
	}
	return nil
}

func malformedType(t sqltype.Type, what string) error {
	return &sqlstate.Error{
		Code:    sqlstate.InternalError,
		Message: fmt.Sprintf("cannot encode %s: %s", t, what),
	}
}

// isNested reports whether t is presented as json because it is a nested
// type that is neither a Postgres array of scalars nor an int2vector or
// oidvector.
func isNested(t sqltype.Type) bool {
	switch t.ID {
	case sqltype.Struct, sqltype.Map, sqltype.Union:
		return true
	case sqltype.List, sqltype.Array:
		if _, ok := vectorOID(t); ok {
			return false
		}
		_, ok := arrayElem(t)
		return !ok
	}
	return false
}

// textEncoder returns the format-0 encoder of a well-formed type t.
func textEncoder(t sqltype.Type) Encoder {
	if elem, ok := arrayElem(t); ok {
		return arrayTextEncoder(elem)
	}
	if isNested(t) {
		return jsonEncoder(t)
	}
	return scalarTextEncoder(t)
}

// binaryEncoder returns the format-1 encoder of a well-formed type t.
func binaryEncoder(t sqltype.Type) Encoder {
	if elem, ok := arrayElem(t); ok {
		return arrayBinaryEncoder(elem)
	}
	if isNested(t) {
		// json's binary format is its text.
		return jsonEncoder(t)
	}
	return scalarBinaryEncoder(t)
}
