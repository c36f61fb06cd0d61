package copyin

// CSV parser states.
const (
	csvUnquoted   = iota // outside quotes
	csvQuoted            // inside a quoted field
	csvEscape            // after the escape byte inside quotes (escape differs from quote)
	csvAfterQuote        // after a quote inside quotes: closing, or doubled?
)

// feedCSV parses CSV bytes with Postgres' rules: a field is quoted if it
// starts with the quote byte; inside quotes the escape byte followed by the
// quote (or escape) byte is that byte literally, and newlines are data; an
// unquoted field equal to the NULL string is NULL, a quoted one never is.
// The parser is a byte-at-a-time state machine, so payload boundaries may
// fall anywhere.
func (p *Parser) feedCSV(data []byte) {
	for _, b := range data {
		if p.err != nil || p.ended {
			return
		}
		switch p.state {
		case csvQuoted:
			p.quotedByte(b)
		case csvEscape:
			if b != p.quote && b != p.esc {
				p.field = append(p.field, p.esc)
			}
			p.field = append(p.field, b)
			p.state = csvQuoted
		case csvAfterQuote:
			if b == p.quote && p.esc == p.quote {
				p.field = append(p.field, b)
				p.state = csvQuoted
				continue
			}
			p.state = csvUnquoted
			p.unquotedByte(b)
		default:
			p.unquotedByte(b)
		}
	}
}

func (p *Parser) quotedByte(b byte) {
	switch {
	case b == p.esc && p.esc != p.quote:
		p.state = csvEscape
	case b == p.quote:
		p.state = csvAfterQuote
	default:
		if b == '\n' {
			p.lines++
		}
		p.field = append(p.field, b)
	}
}

func (p *Parser) unquotedByte(b byte) {
	switch {
	case b == p.quote && len(p.field) == 0 && !p.quoted:
		p.quoted, p.state = true, csvQuoted
	case b == p.delim:
		p.endCSVField()
	case b == '\n':
		p.field = trimCR(p.field)
		p.endCSVRecord()
	default:
		p.field = append(p.field, b)
	}
}

func (p *Parser) endCSVField() {
	null := !p.quoted && string(p.field) == p.opts.Null
	v := append([]byte(nil), p.field...)
	p.fields, p.isNull = append(p.fields, v), append(p.isNull, null)
	p.field, p.quoted = p.field[:0], false
}

// endCSVRecord ends a row: the end-of-data marker, the header, or data.
func (p *Parser) endCSVRecord() {
	marker := len(p.fields) == 0 && !p.quoted && string(p.field) == `\.`
	p.endCSVField()
	p.line += int64(1 + p.lines)
	p.lines = 0
	switch {
	case marker:
		p.ended = true
	case p.header:
		p.header = false
	default:
		p.writeRow()
	}
	p.fields, p.isNull = p.fields[:0], p.isNull[:0]
}
