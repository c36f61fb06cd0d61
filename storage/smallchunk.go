//go:build duckdb_arrow

package storage

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// smallChunk is the number of rows up to which Next builds a chunk's
// record batch in Go from DuckDB's vectors rather than through DuckDB's
// Arrow conversion, whose fixed cost (the conversion's set-up and the
// import of its C structures) dominates a one-row result such as a
// prepared point query returns: BenchmarkSmallResult, executing and reading
// SELECT $1::INTEGER in-process, took 71 µs per execution built in Go and
// 85 µs through the conversion (medians of 10 runs, alternating). Larger
// chunks keep DuckDB's conversion, which is written for them and not
// limited to the types handled here.
var smallChunk = 64

// directly reports whether every column of a result can be copied from
// DuckDB's vectors into the Arrow type the schema gives it: numbers,
// booleans, dates, timestamps and strings, whose vectors hold their values
// in Arrow's own layout (strings apart, which are gathered).
func directly(cols []Column, schema *arrow.Schema) bool {
	for i, col := range cols {
		if !directType(col.Type.ID, schema.Field(i).Type) {
			return false
		}
	}
	return true
}

func directType(id TypeID, t arrow.DataType) bool {
	switch id {
	case TypeBoolean:
		return t.ID() == arrow.BOOL
	case TypeTinyInt:
		return t.ID() == arrow.INT8
	case TypeSmallInt:
		return t.ID() == arrow.INT16
	case TypeInteger:
		return t.ID() == arrow.INT32
	case TypeBigInt:
		return t.ID() == arrow.INT64
	case TypeUTinyInt:
		return t.ID() == arrow.UINT8
	case TypeUSmallInt:
		return t.ID() == arrow.UINT16
	case TypeUInteger:
		return t.ID() == arrow.UINT32
	case TypeUBigInt:
		return t.ID() == arrow.UINT64
	case TypeFloat:
		return t.ID() == arrow.FLOAT32
	case TypeDouble:
		return t.ID() == arrow.FLOAT64
	case TypeDate:
		return t.ID() == arrow.DATE32
	case TypeTimestamp, TypeTimestampTZ:
		ts, ok := t.(*arrow.TimestampType)
		return ok && ts.Unit == arrow.Microsecond
	case TypeVarchar:
		return t.ID() == arrow.STRING
	}
	return false
}

// directBatch builds the record batch of a chunk of size rows from its
// vectors, which the C API hands out flat. The values are copied, so the
// batch outlives the chunk.
func directBatch(schema *arrow.Schema, chunk mapping.DataChunk, size int) arrow.RecordBatch {
	cols := make([]arrow.Array, schema.NumFields())
	for i := range cols {
		vec := mapping.DataChunkGetVector(chunk, mapping.IdxT(i))
		t := schema.Field(i).Type
		valid, nulls := validity(vec, size)
		data := mapping.VectorGetData(vec)
		isValid := func(j int) bool { return valid == nil || valid.Bytes()[j/8]&(1<<(j%8)) != 0 }
		var buffers []*memory.Buffer
		switch t.ID() {
		case arrow.BOOL:
			bits := make([]byte, (size+7)/8)
			for j, b := range unsafe.Slice((*byte)(data), size) {
				if b != 0 {
					bits[j/8] |= 1 << (j % 8)
				}
			}
			buffers = []*memory.Buffer{valid, memory.NewBufferBytes(bits)}
		case arrow.STRING:
			buffers = append([]*memory.Buffer{valid}, gatherStrings(data, size, isValid)...)
		default:
			width := t.(arrow.FixedWidthDataType).BitWidth() / 8
			buffers = []*memory.Buffer{valid, memory.NewBufferBytes(append([]byte(nil), unsafe.Slice((*byte)(data), size*width)...))}
		}
		cols[i] = array.MakeFromData(array.NewData(t, size, buffers, nil, nulls, 0))
	}
	rec := array.NewRecordBatch(schema, cols, int64(size))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// validity is the vector's validity bitmap for size rows as an Arrow
// buffer, and the number of NULLs; nil when there are none. DuckDB's mask
// is 64-bit words, least significant bit first, which on a little-endian
// machine is Arrow's byte layout.
func validity(vec mapping.Vector, size int) (*memory.Buffer, int) {
	mask := mapping.VectorGetValidity(vec)
	if mask == nil {
		return nil, 0
	}
	bits := append([]byte(nil), unsafe.Slice((*byte)(mask), (size+7)/8)...)
	nulls := 0
	for j := range size {
		if bits[j/8]&(1<<(j%8)) == 0 {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return memory.NewBufferBytes(bits), nulls
}

// gatherStrings builds the offsets and data buffers of an Arrow string
// array from a VARCHAR vector's duckdb_string_t values: 16 bytes each, a
// 32-bit length, then either the string itself (up to 12 bytes) or a
// 4-byte prefix and a pointer to it. A NULL's slot, which DuckDB leaves
// as it was, is not read and is empty.
func gatherStrings(data unsafe.Pointer, size int, isValid func(int) bool) []*memory.Buffer {
	type stringT struct {
		length uint32
		inline [12]byte
	}
	values := unsafe.Slice((*stringT)(data), size)
	offsets := make([]int32, size+1)
	total := 0
	for j := range values {
		if isValid(j) {
			total += int(values[j].length)
		}
		offsets[j+1] = int32(total)
	}
	bytes := make([]byte, 0, total)
	for j := range values {
		v := &values[j]
		if !isValid(j) {
			continue
		}
		if v.length <= 12 {
			bytes = append(bytes, v.inline[:v.length]...)
			continue
		}
		ptr := *(*unsafe.Pointer)(unsafe.Pointer(&v.inline[4]))
		bytes = append(bytes, unsafe.Slice((*byte)(ptr), v.length)...)
	}
	return []*memory.Buffer{memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(bytes)}
}
