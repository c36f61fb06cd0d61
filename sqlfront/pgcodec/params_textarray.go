package pgcodec

import (
	"strings"
)

// decodeTextArray parses a Postgres array literal such as '{1,"a b",NULL}'
// or '[0:1]={{1,2},{3,4}}' and renders it as a DuckDB list literal (see
// renderArray). Bounds are ignored: DuckDB lists always start at 1.
func decodeTextArray(oid, elem uint32, s string) (any, error) {
	p := arrayParser{s: s, oid: oid, elem: elem}
	p.skipSpace()
	if p.peek() == '[' {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, textError(oid, "array dimensions without \"=\"")
		}
		p.pos = eq + 1
	}
	v, err := p.array(0)
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.pos != len(s) {
		return nil, textError(oid, "junk after closing right brace")
	}
	return string(renderArray(nil, elem, v)), nil
}

// arrayParser reads a Postgres array literal as array_in does.
type arrayParser struct {
	s    string
	pos  int
	oid  uint32
	elem uint32
}

func (p *arrayParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *arrayParser) eat(c byte) bool {
	if p.peek() == c && p.pos < len(p.s) {
		p.pos++
		return true
	}
	return false
}

func (p *arrayParser) skipSpace() {
	for p.pos < len(p.s) && isArraySpace(p.s[p.pos]) {
		p.pos++
	}
}

func isArraySpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// array reads "{...}" with its elements and sub-arrays.
func (p *arrayParser) array(depth int) (arrayValue, error) {
	p.skipSpace()
	if !p.eat('{') {
		return arrayValue{}, textError(p.oid, "array value must start with \"{\" or dimension information")
	}
	if depth >= maxArrayDims {
		return arrayValue{}, textError(p.oid, "more than %d dimensions", maxArrayDims)
	}
	out := arrayValue{isSub: true}
	if p.skipSpace(); p.eat('}') {
		return out, nil
	}
	for {
		p.skipSpace()
		var v arrayValue
		var err error
		if p.peek() == '{' {
			v, err = p.array(depth + 1)
		} else {
			v, err = p.element()
		}
		if err != nil {
			return arrayValue{}, err
		}
		out.sub = append(out.sub, v)
		p.skipSpace()
		switch {
		case p.eat(','):
		case p.eat('}'):
			return out, nil
		default:
			return arrayValue{}, textError(p.oid, "unexpected character at byte %d", p.pos+1)
		}
	}
}

// element reads one quoted or unquoted element; unquoted NULL is SQL NULL.
func (p *arrayParser) element() (arrayValue, error) {
	var b strings.Builder
	quoted := p.eat('"')
	end := 0 // The length of b up to its last escaped or non-space byte.
	for {
		if p.pos >= len(p.s) {
			return arrayValue{}, textError(p.oid, "unexpected end of input")
		}
		c := p.s[p.pos]
		if quoted && c == '"' {
			p.pos++
			break
		}
		if !quoted && (c == ',' || c == '}') {
			break
		}
		if !quoted && (c == '{' || c == '"') {
			return arrayValue{}, textError(p.oid, "unexpected %q at byte %d", c, p.pos+1)
		}
		escaped := c == '\\'
		if escaped {
			if p.pos++; p.pos >= len(p.s) {
				return arrayValue{}, textError(p.oid, "unexpected end of input")
			}
			c = p.s[p.pos]
		}
		b.WriteByte(c)
		if quoted || escaped || !isArraySpace(c) {
			end = b.Len()
		}
		p.pos++
	}
	text := b.String()[:end]
	if !quoted && text == "" {
		return arrayValue{}, textError(p.oid, "unexpected %q at byte %d", p.peek(), p.pos+1)
	}
	if !quoted && strings.EqualFold(text, "NULL") {
		return arrayValue{}, nil
	}
	v, err := convertTextElem(p.elem, text)
	return arrayValue{val: v}, err
}

// convertTextElem converts one element of a text array as a text scalar
// of the element type would be, except that bytea stays binary for
// renderLeaf to spell as DuckDB blob text.
func convertTextElem(elem uint32, s string) (any, error) {
	if elem == OIDBytea {
		return decodeByteaText([]byte(s))
	}
	return convertTextScalar(elem, s)
}
