package sqlfront

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

// copyFormatter renders rows as lines of COPY TO STDOUT output.
type copyFormatter struct {
	c      *plan.Copy
	cols   []sqltype.Column
	csv    bool
	delim  byte
	quote  byte
	esc    byte
	forced []bool // per column: always quote (csv FORCE QUOTE)
	line   []byte
	val    []byte
}

func newCopyFormatter(c *plan.Copy, cols []sqltype.Column) *copyFormatter {
	f := &copyFormatter{c: c, cols: cols, csv: c.Format == "csv", delim: c.Delimiter[0]}
	if f.csv {
		f.quote, f.esc = c.Quote[0], c.Escape[0]
	}
	f.forced = make([]bool, len(cols))
	for _, name := range c.ForceQuote {
		for i, col := range cols {
			if name == "*" || name == col.Name || name == `"`+col.Name+`"` {
				f.forced[i] = true
			}
		}
	}
	return f
}

func (f *copyFormatter) header() []byte {
	f.line = f.line[:0]
	for i, col := range f.cols {
		if i > 0 {
			f.line = append(f.line, f.delim)
		}
		f.line = f.appendValue(f.line, []byte(col.Name), false)
	}
	return append(f.line, '\n')
}

// row renders row r of the batch columns with text encoders.
func (f *copyFormatter) row(encs []pgcodec.Encoder, cols []arrow.Array, r int) []byte {
	f.line = f.line[:0]
	for i, arr := range cols {
		if i > 0 {
			f.line = append(f.line, f.delim)
		}
		if arr.IsNull(r) {
			f.line = append(f.line, f.c.Null...)
			continue
		}
		f.val = encs[i](f.val[:0], arr, r)
		f.line = f.appendValue(f.line, f.val, f.forced[i])
	}
	return append(f.line, '\n')
}

func (f *copyFormatter) appendValue(dst, v []byte, force bool) []byte {
	if f.csv {
		return f.appendCSV(dst, v, force)
	}
	for _, b := range v {
		switch b {
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if b == f.delim {
				dst = append(dst, '\\')
			}
			dst = append(dst, b)
		}
	}
	return dst
}

// appendCSV quotes v when Postgres would: forced, empty (so that it differs
// from NULL), equal to the NULL string, or holding the delimiter, the quote,
// the escape or a line break.
func (f *copyFormatter) appendCSV(dst, v []byte, force bool) []byte {
	need := force || len(v) == 0 || string(v) == f.c.Null
	for _, b := range v {
		if b == f.delim || b == f.quote || b == f.esc || b == '\n' || b == '\r' {
			need = true
			break
		}
	}
	if !need {
		return append(dst, v...)
	}
	dst = append(dst, f.quote)
	for _, b := range v {
		if b == f.quote || b == f.esc {
			dst = append(dst, f.esc)
		}
		dst = append(dst, b)
	}
	return append(dst, f.quote)
}
