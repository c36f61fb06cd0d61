// Package copyin reads the data of COPY FROM STDIN, in Postgres' text, CSV
// and binary formats, as the CopyData messages bring it, and writes it out
// as one canonical CSV for DuckDB to load. It has no engine and no cgo in
// it, so that its parsers are tested and fuzzed without DuckDB.
package copyin

import (
	"bufio"
	"bytes"
	"fmt"

	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/sqltype"
)

// Parser turns COPY FROM STDIN data, in Postgres' text, CSV or binary
// format, into the canonical CSV of the spool file: one line per row,
// every value quoted, NULL as an empty unquoted field. It is fed CopyData
// payloads as they arrive; a row may span payloads, and where they split
// the data does not change what it writes.
type Parser struct {
	opts  Options
	cols  []sqltype.Column
	out   *bufio.Writer
	delim byte
	quote byte
	esc   byte
	csv   bool

	line    int64 // input line (binary: tuple) of the current row, 1-based
	rows    int64 // rows written
	header  bool  // a header line is still to be skipped
	ended   bool  // the end-of-data marker \. was seen
	err     error
	partial []byte // bytes of an unfinished row carried to the next payload

	// Binary format (see binary.go): each column's type, and whether
	// the header has been read.
	oids       []uint32
	headerRead bool

	// CSV state of the row being parsed.
	fields [][]byte
	isNull []bool
	field  []byte
	state  int  // csvUnquoted, csvQuoted, ...
	quoted bool // the current field started with a quote
	lines  int  // newlines inside the current row's quoted fields
}

// Options are the options of a COPY FROM STDIN statement that say how its
// data reads, as the planner validates them: Delimiter, and for csv Quote
// and Escape, are one byte each.
type Options struct {
	// Table names the target table in error messages.
	Table string
	// Format is "text", "csv" or "binary".
	Format string
	// Delimiter is the field separator.
	Delimiter string
	// Null is the string that stands for NULL.
	Null string
	// Header says whether the data starts with a header line to skip.
	Header bool
	// Quote and Escape are csv's quote and escape bytes.
	Quote, Escape string
}

// NewParser returns a parser of data in the format of c for the columns
// cols, which writes the canonical CSV of each row to out.
func NewParser(c Options, cols []sqltype.Column, out *bufio.Writer) *Parser {
	p := &Parser{opts: c, cols: cols, out: out, csv: c.Format == "csv", header: c.Header}
	if c.Format == "binary" {
		for _, col := range cols {
			p.oids = append(p.oids, pgcodec.TypeFor(col.Type).OID)
		}
		return p
	}
	p.delim = c.Delimiter[0]
	if p.csv {
		p.quote, p.esc = c.Quote[0], c.Escape[0]
	}
	return p
}

// Feed parses one CopyData payload. After an error it does nothing.
func (p *Parser) Feed(data []byte) {
	if p.err != nil || p.ended {
		return
	}
	if p.oids != nil {
		p.feedBinary(data)
		return
	}
	if p.csv {
		p.feedCSV(data)
		return
	}
	for len(data) > 0 && p.err == nil && !p.ended {
		i := indexByte(data, '\n')
		if i < 0 {
			p.partial = append(p.partial, data...)
			return
		}
		line := data[:i]
		if len(p.partial) > 0 {
			line = append(p.partial, line...)
			p.partial = p.partial[:0]
		}
		p.textLine(trimCR(line))
		data = data[i+1:]
	}
}

// Finish ends the data: it handles a last row without a trailing newline
// and returns the first error in the data, a *sqlstate.Error, if any.
func (p *Parser) Finish() error {
	p.finish()
	return p.err
}

// Rows is the number of rows written to the output.
func (p *Parser) Rows() int64 { return p.rows }

// finish handles a last row without a trailing newline.
func (p *Parser) finish() {
	if p.oids != nil {
		p.finishBinary()
		return
	}
	if p.err != nil || p.ended {
		return
	}
	if p.csv {
		if p.state == csvQuoted || p.state == csvEscape {
			p.fail(sqlstate.BadCopyFileFormat, "unterminated CSV quoted field")
			return
		}
		if len(p.fields) > 0 || len(p.field) > 0 || p.quoted {
			p.endCSVRecord()
		}
		return
	}
	if len(p.partial) > 0 {
		p.textLine(trimCR(p.partial))
	}
}

func (p *Parser) textLine(line []byte) {
	p.line++
	if string(line) == `\.` {
		p.ended = true
		return
	}
	if p.header {
		p.header = false
		return
	}
	p.fields, p.isNull = p.fields[:0], p.isNull[:0]
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != p.delim {
			if line[i] == '\\' {
				i++ // an escaped byte never ends a field
			}
			continue
		}
		raw := line[start:min(i, len(line))]
		if string(raw) == p.opts.Null {
			p.fields, p.isNull = append(p.fields, nil), append(p.isNull, true)
		} else {
			v, err := unescapeText(raw)
			if err != nil {
				p.fail(sqlstate.BadCopyFileFormat, err.Error())
				return
			}
			p.fields, p.isNull = append(p.fields, v), append(p.isNull, false)
		}
		start = i + 1
	}
	p.writeRow()
}

// writeRow checks the row's width and writes it to the spool file.
func (p *Parser) writeRow() {
	if len(p.fields) < len(p.cols) {
		p.fail(sqlstate.BadCopyFileFormat, fmt.Sprintf("missing data for column %q", p.cols[len(p.fields)].Name))
		return
	}
	if len(p.fields) > len(p.cols) {
		p.fail(sqlstate.BadCopyFileFormat, "extra data after last expected column")
		return
	}
	for i, f := range p.fields {
		if i > 0 {
			p.out.WriteByte(',')
		}
		if !p.isNull[i] {
			writeQuoted(p.out, pgText(p.cols[i].Type, f))
		}
	}
	p.out.WriteByte('\n')
	p.rows++
}

func (p *Parser) fail(code sqlstate.Code, msg string) {
	p.err = &sqlstate.Error{Code: code, Message: msg, Where: fmt.Sprintf("COPY %s, line %d", p.opts.Table, p.line)}
}

// unescapeText decodes the backslash escapes of Postgres' COPY text format.
func unescapeText(raw []byte) ([]byte, error) {
	if indexByte(raw, '\\') < 0 {
		return raw, nil
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		b := raw[i]
		if b != '\\' {
			out = append(out, b)
			continue
		}
		i++
		if i == len(raw) {
			return nil, fmt.Errorf("end-of-copy marker corrupt")
		}
		switch c := raw[i]; c {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'v':
			out = append(out, '\v')
		case 'x':
			v, n := parseDigits(raw[i+1:], 16, 2)
			if n == 0 {
				out = append(out, 'x')
				continue
			}
			out, i = append(out, byte(v)), i+n
		default:
			if c >= '0' && c <= '7' {
				v, n := parseDigits(raw[i:], 8, 3)
				out, i = append(out, byte(v)), i+n-1
				continue
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// parseDigits reads up to max digits of base from b.
func parseDigits(b []byte, base, max int) (v, n int) {
	for n < max && n < len(b) {
		d := digitValue(b[n])
		if d < 0 || d >= base {
			break
		}
		v, n = v*base+d, n+1
	}
	return v, n
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

func indexByte(b []byte, c byte) int { return bytes.IndexByte(b, c) }

// writeQuoted writes f as a quoted CSV field, doubling embedded quotes; it
// writes runs of bytes, not single bytes, since this is COPY's inner loop.
func writeQuoted(w *bufio.Writer, f []byte) {
	w.WriteByte('"')
	for {
		i := indexByte(f, '"')
		if i < 0 {
			w.Write(f)
			break
		}
		w.Write(f[:i+1])
		w.WriteByte('"')
		f = f[i+1:]
	}
	w.WriteByte('"')
}
