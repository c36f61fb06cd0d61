package pgcodec

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

// RowEncoder encodes the rows of result batches as the field lists of
// DataRow messages. It is made once per result shape and holds no batch;
// Bind ties it to one batch at a time.
//
// The common columns (integers and doubles, timestamps and dates in binary,
// integers in text, and text) are read straight from their Arrow buffers,
// without a call per value: a row of such columns costs a few stores per
// field. Every other column goes through its Encoder.
type RowEncoder struct {
	cols []rowColumn
}

// rowKind is how a column is read and encoded in AppendRow.
type rowKind uint8

const (
	rowGeneric       rowKind = iota // the column's Encoder
	rowInt16Binary                  // int16 values, big-endian
	rowInt32Binary                  // int32 values, big-endian
	rowInt64Binary                  // int64 values, big-endian
	rowFloat64Binary                // float64 values, NaN made Postgres' NaN
	rowDateBinary                   // date32 days, shifted to 2000-01-01
	rowTimestampUs                  // timestamp[us], shifted to 2000-01-01
	rowInt32Text                    // int32 values in decimal
	rowInt64Text                    // int64 values in decimal
	rowString                       // utf8 bytes as they are
)

type rowColumn struct {
	enc  Encoder
	kind rowKind // the kind a batch in DuckDB's default Arrow layout gets
}

// NewRowEncoder returns the row encoder of columns of types in formats
// (one format per column), with NewEncoder's errors.
func NewRowEncoder(types []sqltype.Type, formats []int16) (*RowEncoder, error) {
	e := &RowEncoder{cols: make([]rowColumn, len(types))}
	for i, t := range types {
		enc, err := NewEncoder(t, formats[i])
		if err != nil {
			return nil, err
		}
		e.cols[i] = rowColumn{enc: enc, kind: kindOf(t, formats[i])}
	}
	return e, nil
}

// kindOf is the rowKind of type t in format, rowGeneric unless the direct
// read encodes exactly as t's Encoder does. VARCHAR and its aliases but
// jsonb encode as the string itself in both formats; other types with an
// alias (money, for one) keep their Encoder.
func kindOf(t sqltype.Type, format int16) rowKind {
	if t.ID == sqltype.Varchar && !t.IsJSONB() {
		return rowString
	}
	if t.Alias != "" {
		return rowGeneric
	}
	if format == FormatText {
		switch t.ID {
		case sqltype.Integer:
			return rowInt32Text
		case sqltype.BigInt:
			return rowInt64Text
		}
		return rowGeneric
	}
	switch t.ID {
	case sqltype.SmallInt:
		return rowInt16Binary
	case sqltype.Integer:
		return rowInt32Binary
	case sqltype.BigInt:
		return rowInt64Binary
	case sqltype.Double:
		return rowFloat64Binary
	case sqltype.Date:
		return rowDateBinary
	case sqltype.Timestamp, sqltype.TimestampTZ:
		return rowTimestampUs
	}
	return rowGeneric
}

// BoundRows is a RowEncoder bound to one batch's columns. The zero value is
// ready for Bind; binding again reuses its memory.
type BoundRows struct {
	cols []boundColumn
}

type boundColumn struct {
	kind  rowKind
	enc   Encoder
	arr   arrow.Array
	valid []byte // the validity bitmap; nil when the column has no NULLs
	off   int    // the array's offset into valid

	i16  []int16
	i32  []int32
	i64  []int64
	f64  []float64
	offs []int32 // string offsets into data, len+1 of them
	data []byte
}

// Bind ties b to the columns of one batch, which must have the types
// RowEncoder e was made for. A column whose Arrow layout is not the one its
// kind reads (a setting such as produce_arrow_string_view changes it) is
// encoded by its Encoder for this batch.
func (b *BoundRows) Bind(e *RowEncoder, cols []arrow.Array) {
	if cap(b.cols) < len(cols) {
		b.cols = make([]boundColumn, len(cols))
	}
	b.cols = b.cols[:len(cols)]
	for i, arr := range cols {
		c := &b.cols[i]
		*c = boundColumn{kind: rowGeneric, enc: e.cols[i].enc, arr: arr, off: arr.Data().Offset()}
		if arr.NullN() > 0 {
			c.valid = arr.NullBitmapBytes()
		}
		c.bindValues(e.cols[i].kind, arr)
	}
}

// bindValues points c at arr's values when arr has the layout kind reads,
// and sets c.kind to it.
func (c *boundColumn) bindValues(kind rowKind, arr arrow.Array) {
	switch kind {
	case rowInt16Binary:
		if a, ok := arr.(*array.Int16); ok {
			c.kind, c.i16 = kind, a.Int16Values()
		}
	case rowInt32Binary, rowInt32Text:
		if a, ok := arr.(*array.Int32); ok {
			c.kind, c.i32 = kind, a.Int32Values()
		}
	case rowInt64Binary, rowInt64Text:
		if a, ok := arr.(*array.Int64); ok {
			c.kind, c.i64 = kind, a.Int64Values()
		}
	case rowFloat64Binary:
		if a, ok := arr.(*array.Float64); ok {
			c.kind, c.f64 = kind, a.Float64Values()
		}
	case rowDateBinary:
		if a, ok := arr.(*array.Date32); ok {
			vals := a.Date32Values()
			c.kind, c.i32 = kind, arrow.Int32Traits.CastFromBytes(arrow.Date32Traits.CastToBytes(vals))
		}
	case rowTimestampUs:
		if a, ok := arr.(*array.Timestamp); ok && a.DataType().(*arrow.TimestampType).Unit == arrow.Microsecond {
			vals := a.TimestampValues()
			c.kind, c.i64 = kind, arrow.Int64Traits.CastFromBytes(arrow.TimestampTraits.CastToBytes(vals))
		}
	case rowString:
		if a, ok := arr.(*array.String); ok {
			c.kind, c.offs = kind, a.ValueOffsets()
			if buf := a.Data().Buffers()[2]; buf != nil {
				c.data = buf.Bytes()
			}
		}
	}
}

// AppendRow appends row i of the bound batch to dst as a DataRow's field
// count and fields: each value's length and bytes, or length -1 for NULL.
func (b *BoundRows) AppendRow(dst []byte, i int) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(b.cols)))
	for k := range b.cols {
		c := &b.cols[k]
		if c.valid != nil {
			if j := c.off + i; c.valid[j>>3]&(1<<(j&7)) == 0 {
				dst = append(dst, 0xff, 0xff, 0xff, 0xff)
				continue
			}
		}
		switch c.kind {
		case rowInt16Binary:
			dst = append(dst, 0, 0, 0, 2)
			dst = binary.BigEndian.AppendUint16(dst, uint16(c.i16[i]))
		case rowInt32Binary:
			dst = append(dst, 0, 0, 0, 4)
			dst = binary.BigEndian.AppendUint32(dst, uint32(c.i32[i]))
		case rowInt64Binary:
			dst = append(dst, 0, 0, 0, 8)
			dst = binary.BigEndian.AppendUint64(dst, uint64(c.i64[i]))
		case rowFloat64Binary:
			bits := math.Float64bits(c.f64[i])
			if f := c.f64[i]; f != f {
				bits = 0x7ff8000000000000
			}
			dst = append(dst, 0, 0, 0, 8)
			dst = binary.BigEndian.AppendUint64(dst, bits)
		case rowDateBinary:
			dst = append(dst, 0, 0, 0, 4)
			dst = binary.BigEndian.AppendUint32(dst, uint32(pgDate(int64(c.i32[i]))))
		case rowTimestampUs:
			dst = append(dst, 0, 0, 0, 8)
			dst = binary.BigEndian.AppendUint64(dst, uint64(pgTimestamp(c.i64[i], arrow.Microsecond)))
		case rowString:
			s := c.data[c.offs[i]:c.offs[i+1]]
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
			dst = append(dst, s...)
		case rowInt32Text, rowInt64Text:
			v := int64(0)
			if c.kind == rowInt32Text {
				v = int64(c.i32[i])
			} else {
				v = c.i64[i]
			}
			at := len(dst)
			dst = strconv.AppendInt(append(dst, 0, 0, 0, 0), v, 10)
			binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
		default:
			at := len(dst)
			dst = c.enc(append(dst, 0, 0, 0, 0), c.arr, i)
			binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
		}
	}
	return dst
}
