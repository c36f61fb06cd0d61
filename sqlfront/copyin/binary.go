package copyin

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
)

// Postgres' binary COPY format (what pgx's CopyFrom sends): a header, the
// 11-byte signature, 32-bit flags and a header extension of a length
// given in 32 bits; then one tuple per row, a 16-bit field count (-1 for
// the trailer that ends the data) and per field a 32-bit length (-1 for
// NULL) and that many bytes in the field type's binary send format. The
// format names no types: each field is decoded as the type its target
// column is presented as (what the client learned by describing it).

// binarySignature opens binary COPY data.
var binarySignature = []byte("PGCOPY\n\xff\r\n\x00")

// binaryHasOIDs is the header flag of data written WITH OIDS, which
// Postgres 12 dropped.
const binaryHasOIDs = 1 << 16

// feedBinary takes one CopyData payload of binary data: it parses every
// complete tuple in what has arrived and keeps the rest for the next.
func (p *Parser) feedBinary(data []byte) {
	p.partial = append(p.partial, data...)
	used := 0
	for p.err == nil && !p.ended {
		n := p.binaryItem(p.partial[used:])
		if n == 0 {
			break
		}
		used += n
	}
	p.partial = p.partial[:copy(p.partial, p.partial[used:])]
}

// finishBinary checks that the data did not stop inside the header or a
// tuple. Data that ends after a whole tuple without the trailer is
// accepted, as Postgres accepts it.
func (p *Parser) finishBinary() {
	switch {
	case p.err != nil || p.ended:
	case !p.headerRead:
		p.fail(sqlstate.BadCopyFileFormat, "COPY file signature not recognized")
	case len(p.partial) > 0:
		p.fail(sqlstate.BadCopyFileFormat, "unexpected EOF in COPY data")
	}
}

// binaryItem parses the header or one tuple at the start of b and returns
// the bytes it used, or 0 if b does not hold all of it yet.
func (p *Parser) binaryItem(b []byte) int {
	if !p.headerRead {
		return p.binaryHeader(b)
	}
	if len(b) < 2 {
		return 0
	}
	count := int(int16(binary.BigEndian.Uint16(b)))
	if count == -1 {
		p.ended = true
		return 2
	}
	if count != len(p.cols) {
		p.line++
		p.fail(sqlstate.BadCopyFileFormat, fmt.Sprintf("row field count is %d, expected %d", count, len(p.cols)))
		return 0
	}
	// Find the tuple's end before decoding anything, so that a tuple split
	// across payloads is decoded, and its line counted, once, whole.
	end := 2
	for range count {
		if len(b) < end+4 {
			return 0
		}
		size := int(int32(binary.BigEndian.Uint32(b[end:])))
		end += 4
		switch {
		case size == -1:
		case size < 0:
			p.line++
			p.fail(sqlstate.BadCopyFileFormat, fmt.Sprintf("invalid field size %d", size))
			return 0
		case len(b)-end < size:
			return 0
		default:
			end += size
		}
	}
	p.line++
	p.fields, p.isNull = p.fields[:0], p.isNull[:0]
	at := 2
	for i := range count {
		size := int(int32(binary.BigEndian.Uint32(b[at:])))
		at += 4
		if size == -1 {
			p.fields, p.isNull = append(p.fields, nil), append(p.isNull, true)
			continue
		}
		text, err := binaryFieldText(p.oids[i], b[at:at+size])
		at += size
		if err != nil {
			e := sqlstate.From(err)
			p.fail(e.Code, fmt.Sprintf("%s (column %s)", e.Message, p.cols[i].Name))
			return 0
		}
		p.fields, p.isNull = append(p.fields, text), append(p.isNull, false)
	}
	p.writeRow()
	return end
}

// binaryHeader parses the header at the start of b.
func (p *Parser) binaryHeader(b []byte) int {
	const fixed = 11 + 4 + 4
	if len(b) < len(binarySignature) {
		if !bytes.HasPrefix(binarySignature, b) {
			p.fail(sqlstate.BadCopyFileFormat, "COPY file signature not recognized")
		}
		return 0
	}
	if !bytes.HasPrefix(b, binarySignature) {
		p.fail(sqlstate.BadCopyFileFormat, "COPY file signature not recognized")
		return 0
	}
	if len(b) < fixed {
		return 0
	}
	flags := binary.BigEndian.Uint32(b[11:])
	if flags&binaryHasOIDs != 0 {
		p.fail(sqlstate.BadCopyFileFormat, "invalid COPY file header (WITH OIDS)")
		return 0
	}
	if flags>>16 != 0 {
		p.fail(sqlstate.BadCopyFileFormat, "unrecognized critical flags in COPY file header")
		return 0
	}
	ext := int(int32(binary.BigEndian.Uint32(b[15:])))
	if ext < 0 {
		p.fail(sqlstate.BadCopyFileFormat, "invalid COPY file header (missing length)")
		return 0
	}
	if len(b) < fixed+ext {
		return 0
	}
	p.headerRead = true
	return fixed + ext
}

// binaryFieldText decodes one field of type oid and renders it as DuckDB's
// CSV reader reads a value of that type.
func binaryFieldText(oid uint32, data []byte) ([]byte, error) {
	v, err := pgcodec.DecodeParam(oid, pgcodec.FormatBinary, data)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case bool:
		return strconv.AppendBool(nil, x), nil
	case int16:
		return strconv.AppendInt(nil, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(nil, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(nil, x, 10), nil
	case float32:
		return floatText(float64(x), 32), nil
	case float64:
		return floatText(x, 64), nil
	case string:
		return []byte(x), nil
	case []byte:
		return blobText(x), nil
	}
	return nil, sqlstate.New(sqlstate.InternalError, "binary COPY: no text form for %T", v)
}

// floatText renders f so that DuckDB reads back the same value.
func floatText(f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return []byte("nan")
	case math.IsInf(f, 1):
		return []byte("inf")
	case math.IsInf(f, -1):
		return []byte("-inf")
	}
	return strconv.AppendFloat(nil, f, 'g', -1, bits)
}

// blobText renders bytes in Postgres' bytea hex form, \x and two digits a
// byte, which storage's cast to BLOB reads as Postgres does.
func blobText(b []byte) []byte {
	out := make([]byte, 2, 2+2*len(b))
	out[0], out[1] = '\\', 'x'
	return hex.AppendEncode(out, b)
}
