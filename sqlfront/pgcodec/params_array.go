package pgcodec

import (
	"encoding/binary"
	"strconv"

	"github.com/mallard/mallard/sqlstate"
)

// maxArrayDims is Postgres' MAXDIM.
const maxArrayDims = 6

// arrayValue is a decoded array parameter: a leaf's value (nil for NULL)
// or, if sub is set, a sub-array. It is what binary and text arrays both
// decode to before being rendered for DuckDB.
type arrayValue struct {
	val   any
	sub   []arrayValue
	isSub bool
}

// decodeBinaryArray decodes Postgres' binary array format (see
// arrayBinaryEncoder) with any number of dimensions, and renders it as a
// DuckDB list literal, nested once per dimension.
func decodeBinaryArray(oid, elem uint32, data []byte) (any, error) {
	r := binaryReader{data: data, oid: oid}
	ndim, flags, elemOID := int(r.int32()), r.int32(), r.uint32()
	if r.err != nil || ndim < 0 || ndim > maxArrayDims || flags&^1 != 0 {
		return nil, binaryError(oid, "invalid array header")
	}
	if elemOID != elem {
		return nil, sqlstate.New(sqlstate.DatatypeMismatch,
			"binary data has array element type %d (%s) instead of expected %d (%s)",
			elemOID, typeName(elemOID), elem, typeName(elem))
	}
	dims := make([]int, ndim)
	total := 1
	for k := range dims {
		dims[k] = int(r.int32())
		r.int32() // The lower bound: DuckDB lists always start at 1.
		if dims[k] < 0 || r.err != nil {
			return nil, binaryError(oid, "invalid array dimension")
		}
		// Each element takes at least 4 bytes, which bounds the product.
		if total *= dims[k]; total > len(data)/4 {
			return nil, binaryError(oid, "array dimensions exceed the data")
		}
	}
	if ndim == 0 {
		total = 0
	}
	leaves := make([]arrayValue, total)
	for k := range leaves {
		v, err := r.element(elem)
		if err != nil {
			return nil, err
		}
		leaves[k] = arrayValue{val: v}
	}
	if len(r.data) != 0 {
		return nil, binaryError(oid, "%d bytes after the last element", len(r.data))
	}
	return string(renderArray(nil, elem, nest(leaves, dims))), nil
}

// nest groups a flat run of leaves into sub-arrays along dims.
func nest(leaves []arrayValue, dims []int) arrayValue {
	if len(dims) <= 1 {
		return arrayValue{sub: leaves, isSub: true}
	}
	outer := make([]arrayValue, dims[0])
	size := len(leaves) / max(dims[0], 1)
	for k := range outer {
		outer[k] = nest(leaves[k*size:(k+1)*size], dims[1:])
	}
	return arrayValue{sub: outer, isSub: true}
}

// binaryReader reads big-endian fields, remembering the first shortfall.
type binaryReader struct {
	data []byte
	oid  uint32
	err  error
}

func (r *binaryReader) take(n int) []byte {
	if r.err != nil || len(r.data) < n {
		if r.err == nil {
			r.err = binaryError(r.oid, "unexpected end of data")
		}
		return make([]byte, n)
	}
	b := r.data[:n]
	r.data = r.data[n:]
	return b
}

func (r *binaryReader) uint32() uint32 { return binary.BigEndian.Uint32(r.take(4)) }

func (r *binaryReader) int32() int32 { return int32(r.uint32()) }

// element reads one int32-length-prefixed element and decodes it.
func (r *binaryReader) element(elem uint32) (any, error) {
	n := r.int32()
	if r.err != nil || n < -1 || int(n) > len(r.data) {
		return nil, binaryError(r.oid, "invalid element length")
	}
	if n == -1 {
		return nil, nil
	}
	return decodeBinary(elem, r.take(int(n)))
}

// renderArray appends a decoded array as DuckDB reads it when casting
// text to a list: "[1, 2, NULL]", strings in double quotes with quotes and
// backslashes escaped, nested lists for more dimensions. json and jsonb
// arrays become JSON arrays instead, because DuckDB parses text cast to
// JSON[] as one JSON document.
func renderArray(dst []byte, elem uint32, a arrayValue) []byte {
	if !a.isSub {
		return renderLeaf(dst, elem, a.val)
	}
	dst = append(dst, '[')
	for k, v := range a.sub {
		if k > 0 {
			dst = append(dst, ", "...)
		}
		dst = renderArray(dst, elem, v)
	}
	return append(dst, ']')
}

// renderLeaf appends one element of a list literal.
func renderLeaf(dst []byte, elem uint32, v any) []byte {
	isJSON := elem == OIDJSON || elem == OIDJSONB
	switch v := v.(type) {
	case nil:
		if isJSON {
			return append(dst, "null"...)
		}
		return append(dst, "NULL"...)
	case bool:
		return strconv.AppendBool(dst, v)
	case int16:
		return strconv.AppendInt(dst, int64(v), 10)
	case int32:
		return strconv.AppendInt(dst, int64(v), 10)
	case int64:
		return strconv.AppendInt(dst, v, 10)
	case float32:
		return appendFloat4(dst, v)
	case float64:
		return appendFloat8(dst, v)
	case []byte:
		return quoteListElem(dst, string(appendDuckBlob(nil, v)))
	case string:
		if isJSON {
			return append(dst, v...)
		}
		return quoteListElem(dst, v)
	}
	return dst
}

// quoteListElem appends s double-quoted for a DuckDB list literal, with
// backslashes before quotes and backslashes.
func quoteListElem(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for k := 0; k < len(s); k++ {
		if s[k] == '"' || s[k] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, s[k])
	}
	return append(dst, '"')
}

// appendDuckBlob appends b in Postgres' bytea hex form, \x and two digits
// a byte, which storage's cast to BLOB reads as Postgres does.
func appendDuckBlob(dst []byte, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}
