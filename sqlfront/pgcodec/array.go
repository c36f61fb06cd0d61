package pgcodec

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

// listAt returns the child array and the element range of the list at row
// i of a list, large_list or fixed_size_list array.
func listAt(arr arrow.Array, i int) (arrow.Array, int, int) {
	list, ok := arr.(array.ListLike)
	if !ok {
		unexpected(arr, "a list")
	}
	start, end := list.ValueOffsets(i)
	return list.ListValues(), int(start), int(end)
}

// arrayTextEncoder returns the text encoder of a LIST or ARRAY of elem,
// presented as a one-dimensional Postgres array: "{1,2,NULL}".
func arrayTextEncoder(elem sqltype.Type) Encoder {
	enc := scalarTextEncoder(elem)
	return func(dst []byte, arr arrow.Array, i int) []byte {
		values, start, end := listAt(arr, i)
		dst = append(dst, '{')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ',')
			}
			if values.IsNull(j) {
				dst = append(dst, "NULL"...)
				continue
			}
			mark := len(dst)
			dst = quoteArrayElem(enc(dst, values, j), mark)
		}
		return append(dst, '}')
	}
}

// quoteArrayElem quotes the element text at dst[mark:] in place if
// Postgres' array_out would: if it is empty, is NULL in any case, or
// contains a quote, backslash, brace, comma or white space. Quotes and
// backslashes inside are escaped with a backslash.
func quoteArrayElem(dst []byte, mark int) []byte {
	escapes, needs := 0, len(dst) == mark || isNullWord(dst[mark:])
	for _, c := range dst[mark:] {
		switch c {
		case '"', '\\':
			escapes++
			needs = true
		case '{', '}', ',', ' ', '\t', '\n', '\r', '\v', '\f':
			needs = true
		}
	}
	if !needs {
		return dst
	}
	end := len(dst)
	for range escapes + 2 {
		dst = append(dst, 0)
	}
	w := len(dst) - 1
	dst[w] = '"'
	for r := end - 1; r >= mark; r-- {
		w--
		dst[w] = dst[r]
		if c := dst[r]; c == '"' || c == '\\' {
			w--
			dst[w] = '\\'
		}
	}
	dst[mark] = '"'
	return dst
}

// isNullWord reports whether b is "NULL" in any case.
func isNullWord(b []byte) bool {
	return len(b) == 4 && b[0]|0x20 == 'n' && b[1]|0x20 == 'u' && b[2]|0x20 == 'l' && b[3]|0x20 == 'l'
}

// arrayBinaryEncoder returns the binary encoder of a LIST or ARRAY of
// elem in Postgres' array format: int32 dimensions (1, or 0 if empty),
// int32 has-nulls flag, uint32 element OID, then per dimension int32
// length and int32 lower bound (1), then each element as int32 length (-1
// for NULL) and bytes.
func arrayBinaryEncoder(elem sqltype.Type) Encoder {
	enc := binaryEncoder(elem)
	oid := scalarOIDOf(elem)
	return func(dst []byte, arr arrow.Array, i int) []byte {
		values, start, end := listAt(arr, i)
		if start == end {
			dst = binary.BigEndian.AppendUint64(dst, 0)
			return binary.BigEndian.AppendUint32(dst, oid)
		}
		return appendOneDimension(dst, enc, oid, 1, values, start, end)
	}
}

// appendOneDimension appends a one-dimensional binary array of the
// elements values[start:end], of type elemOID, whose subscripts start at
// lower: dimensions, NULL flag, element type, length, lower bound, then
// each element.
func appendOneDimension(dst []byte, enc Encoder, elemOID, lower uint32, values arrow.Array, start, end int) []byte {
	dst = binary.BigEndian.AppendUint32(dst, 1)
	dst = binary.BigEndian.AppendUint32(dst, hasNull(values, start, end))
	dst = binary.BigEndian.AppendUint32(dst, elemOID)
	dst = binary.BigEndian.AppendUint32(dst, uint32(end-start))
	dst = binary.BigEndian.AppendUint32(dst, lower)
	for j := start; j < end; j++ {
		dst = appendElem(dst, enc, values, j)
	}
	return dst
}

// appendElem appends one element of a binary array or composite: int32
// length, -1 for NULL, then the bytes.
func appendElem(dst []byte, enc Encoder, values arrow.Array, j int) []byte {
	if values.IsNull(j) {
		return binary.BigEndian.AppendUint32(dst, 0xffffffff)
	}
	mark := len(dst)
	dst = enc(append(dst, 0, 0, 0, 0), values, j)
	binary.BigEndian.PutUint32(dst[mark:], uint32(len(dst)-mark-4))
	return dst
}

// hasNull returns 1 if values has a NULL in [start, end), else 0.
func hasNull(values arrow.Array, start, end int) uint32 {
	if values.NullN() == 0 {
		return 0
	}
	for j := start; j < end; j++ {
		if values.IsNull(j) {
			return 1
		}
	}
	return 0
}
