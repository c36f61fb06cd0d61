package pgcodec

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

// vectorOIDs is a read-only table of the element aliases of the lists
// storage registers for Postgres' int2vector and oidvector; a list of one is
// presented as that type.
var vectorOIDs = map[string]uint32{
	sqltype.AliasInt2VectorElem: OIDInt2Vector, sqltype.AliasOIDVectorElem: OIDOIDVector,
}

// vectorOID returns the OID of int2vector or oidvector if t is a list of
// the element alias storage registers for it.
func vectorOID(t sqltype.Type) (uint32, bool) {
	if t.ID != sqltype.List || t.Elem == nil {
		return 0, false
	}
	oid, ok := vectorOIDs[t.Elem.Alias]
	return oid, ok
}

// vectorTextEncoder returns the text encoder of an int2vector or oidvector
// of elem: the elements separated by single spaces, "1 2", as Postgres'
// int2vectorout and oidvectorout print them. Postgres' vectors hold no
// NULLs; a NULL in the DuckDB list prints as NULL, as in an array.
func vectorTextEncoder(elem sqltype.Type) Encoder {
	enc := scalarTextEncoder(elem)
	return func(dst []byte, arr arrow.Array, i int) []byte {
		values, start, end := listAt(arr, i)
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ' ')
			}
			if values.IsNull(j) {
				dst = append(dst, "NULL"...)
				continue
			}
			dst = enc(dst, values, j)
		}
		return dst
	}
}

// vectorBinaryEncoder returns the binary encoder of an int2vector or
// oidvector (oid) of elem: Postgres sends either as a one-dimensional array
// whose subscripts start at 0, with int2 or oid elements, even when empty.
func vectorBinaryEncoder(oid uint32, elem sqltype.Type) Encoder {
	elemOID, enc := OIDInt2, binaryEncoder(elem)
	if oid == OIDOIDVector {
		elemOID, enc = OIDOID, binaryOIDElem
	}
	return func(dst []byte, arr arrow.Array, i int) []byte {
		values, start, end := listAt(arr, i)
		return appendOneDimension(dst, enc, elemOID, 0, values, start, end)
	}
}

// binaryOIDElem encodes an element of an oidvector, a BIGINT in DuckDB, as
// Postgres' four-byte oid.
func binaryOIDElem(dst []byte, arr arrow.Array, i int) []byte {
	v, ok := arr.(*array.Int64)
	if !ok {
		unexpected(arr, "int64")
	}
	return binary.BigEndian.AppendUint32(dst, uint32(v.Value(i)))
}
