package pgcodec

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// jsonbVersion is the first byte of jsonb's binary format: the version of
// the text that follows.
const jsonbVersion = 1

// textJSONB encodes a jsonb value, which DuckDB holds as JSON text, in the
// text form Postgres' jsonb_out gives it (see appendJSONB).
func textJSONB(dst []byte, arr arrow.Array, i int) []byte {
	return appendJSONB(dst, stringAt(arr, i))
}

// binaryJSONB encodes a jsonb value as Postgres sends it in binary: the
// version byte, then the text.
func binaryJSONB(dst []byte, arr arrow.Array, i int) []byte {
	return appendJSONB(append(dst, jsonbVersion), stringAt(arr, i))
}

// appendJSONB appends JSON text s as Postgres prints a jsonb value read from
// it: a space after each ',' and ':' of an object or array and none
// elsewhere, an object's keys sorted by length and then bytewise with only
// the last of equal keys kept, strings with their escapes decoded and
// re-escaped as Postgres escapes them, and numbers as numeric prints them
// ("1e2" is 100, "-0" is 0, "1.50" stays 1.50). Text that is not JSON,
// which DuckDB's JSON type never holds, is appended as it is.
func appendJSONB(dst []byte, s string) []byte {
	p := jsonbParser{s: s}
	mark := len(dst)
	out, ok := p.value(dst)
	if ok {
		p.space()
		ok = p.i == len(s)
	}
	if !ok {
		return append(out[:mark], s...)
	}
	return out
}

// jsonbMaxExponent bounds the exponents appendJSONB writes out in full: a
// number with a larger one keeps its own spelling rather than a million
// zeros.
const jsonbMaxExponent = 1000

// jsonbParser reads JSON text from s, starting at i, and writes its jsonb
// form.
type jsonbParser struct {
	s string
	i int
}

// jsonbMember is one key and the jsonb text of its value.
type jsonbMember struct {
	key   string
	value []byte
}

func (p *jsonbParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value appends the jsonb form of the value at p.i; false if there is none.
func (p *jsonbParser) value(dst []byte) ([]byte, bool) {
	p.space()
	if p.i == len(p.s) {
		return dst, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(dst)
	case c == '[':
		return p.array(dst)
	case c == '"':
		str, ok := p.str()
		return appendJSONBString(dst, str), ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number(dst)
	}
	for _, word := range []string{"true", "false", "null"} {
		if len(p.s)-p.i >= len(word) && p.s[p.i:p.i+len(word)] == word {
			p.i += len(word)
			return append(dst, word...), true
		}
	}
	return dst, false
}

// array appends the jsonb form of the array at p.i.
func (p *jsonbParser) array(dst []byte) ([]byte, bool) {
	p.i++
	dst = append(dst, '[')
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return append(dst, ']'), true
	}
	for first := true; ; first = false {
		if !first {
			dst = append(dst, ',', ' ')
		}
		var ok bool
		if dst, ok = p.value(dst); !ok {
			return dst, false
		}
		p.space()
		if p.i == len(p.s) {
			return dst, false
		}
		p.i++
		switch p.s[p.i-1] {
		case ']':
			return append(dst, ']'), true
		case ',':
		default:
			return dst, false
		}
	}
}

// object appends the jsonb form of the object at p.i.
func (p *jsonbParser) object(dst []byte) ([]byte, bool) {
	p.i++
	members, ok := p.members()
	if !ok {
		return dst, false
	}
	// A stable sort keeps equal keys in their order, so the last one of
	// each run is the one that counts.
	slices.SortStableFunc(members, func(a, b jsonbMember) int {
		if len(a.key) != len(b.key) {
			return len(a.key) - len(b.key)
		}
		return strings.Compare(a.key, b.key)
	})
	dst = append(dst, '{')
	written := 0
	for k, m := range members {
		if k+1 < len(members) && members[k+1].key == m.key {
			continue
		}
		if written > 0 {
			dst = append(dst, ',', ' ')
		}
		dst = append(appendJSONBString(dst, m.key), ':', ' ')
		dst = append(dst, m.value...)
		written++
	}
	return append(dst, '}'), true
}

// members reads an object's members up to and including its closing brace.
func (p *jsonbParser) members() ([]jsonbMember, bool) {
	var members []jsonbMember
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return nil, true
	}
	for {
		p.space()
		if p.i == len(p.s) || p.s[p.i] != '"' {
			return nil, false
		}
		key, ok := p.str()
		p.space()
		if !ok || p.i == len(p.s) || p.s[p.i] != ':' {
			return nil, false
		}
		p.i++
		value, ok := p.value(nil)
		if !ok {
			return nil, false
		}
		members = append(members, jsonbMember{key, value})
		p.space()
		if p.i == len(p.s) {
			return nil, false
		}
		p.i++
		switch p.s[p.i-1] {
		case '}':
			return members, true
		case ',':
		default:
			return nil, false
		}
	}
}

// str reads the string at p.i, which starts with its quote, and returns
// it with its escapes decoded.
func (p *jsonbParser) str() (string, bool) {
	p.i++
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != '"' && p.s[p.i] != '\\' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '"' {
		p.i++
		return p.s[start : p.i-1], true
	}
	buf := []byte(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), true
		case c != '\\':
			buf = append(buf, c)
			p.i++
		default:
			var ok bool
			if buf, ok = p.escape(buf); !ok {
				return "", false
			}
		}
	}
	return "", false
}

// escape decodes the escape sequence at p.i into buf.
func (p *jsonbParser) escape(buf []byte) ([]byte, bool) {
	if p.i+1 >= len(p.s) {
		return buf, false
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case '"', '\\', '/':
		return append(buf, c), true
	case 'b':
		return append(buf, '\b'), true
	case 'f':
		return append(buf, '\f'), true
	case 'n':
		return append(buf, '\n'), true
	case 'r':
		return append(buf, '\r'), true
	case 't':
		return append(buf, '\t'), true
	case 'u':
		r, ok := p.hex4()
		if ok && utf16.IsSurrogate(r) && p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
			p.i += 2
			low, lowOK := p.hex4()
			r, ok = utf16.DecodeRune(r, low), lowOK
		}
		return utf8.AppendRune(buf, r), ok
	}
	return buf, false
}

// hex4 reads the four hex digits of a \u escape at p.i.
func (p *jsonbParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 16)
	p.i += 4
	return rune(v), err == nil
}

// number appends the number at p.i as Postgres' numeric prints it: the
// value with as many fraction digits as the text has, less its exponent.
func (p *jsonbParser) number(dst []byte) ([]byte, bool) {
	start := p.i
	neg := p.s[p.i] == '-'
	if neg {
		p.i++
	}
	intPart := p.digits()
	var frac string
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if frac = p.digits(); frac == "" {
			return dst, false
		}
	}
	exp, ok := p.exponent()
	if intPart == "" || !ok {
		return dst, false
	}
	if exp > jsonbMaxExponent || exp < -jsonbMaxExponent {
		return append(dst, p.s[start:p.i]...), true
	}
	digits := []byte(intPart + frac)
	scale := len(frac) - exp
	for ; scale < 0; scale++ {
		digits = append(digits, '0')
	}
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	return appendNumericText(dst, neg, digits, scale), true
}

// digits reads a run of decimal digits.
func (p *jsonbParser) digits() string {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.s[start:p.i]
}

// exponent reads a number's exponent, 0 if it has none.
func (p *jsonbParser) exponent() (int, bool) {
	if p.i == len(p.s) || p.s[p.i] != 'e' && p.s[p.i] != 'E' {
		return 0, true
	}
	p.i++
	sign := 1
	if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		if p.s[p.i] == '-' {
			sign = -1
		}
		p.i++
	}
	d := p.digits()
	if d == "" {
		return 0, false
	}
	if len(d) > 9 {
		return sign * (jsonbMaxExponent + 1), true
	}
	v, _ := strconv.Atoi(d)
	return sign * v, true
}

// appendJSONBString appends s as a JSON string escaped as Postgres'
// escape_json escapes it (see jsonEscape).
func appendJSONBString(dst []byte, s string) []byte {
	mark := len(dst)
	return escapeJSON(append(dst, s...), mark)
}
