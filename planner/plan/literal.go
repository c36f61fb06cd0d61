package plan

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// stringValue returns the value of a terminated tokString token: the body
// of '…' with doubled quotes undoubled, of E'…' with its backslash escapes decoded, or of
// $tag$…$tag$ as it stands.
func stringValue(raw string) string {
	switch raw[0] {
	case '$':
		tag := raw[:strings.IndexByte(raw[1:], '$')+2]
		return raw[len(tag) : len(raw)-len(tag)]
	case 'e', 'E':
		return unescape(raw[2 : len(raw)-1])
	default:
		return strings.ReplaceAll(raw[1:len(raw)-1], "''", "'")
	}
}

// unescape decodes the body of an E'…' string: doubled quotes and the backslash escapes
// \b \f \n \r \t, \ooo (octal), \xhh (hex), \uXXXX and \UXXXXXXXX; a
// backslash before any other byte stands for that byte.
func unescape(body string) string {
	var b strings.Builder
	for i := 0; i < len(body); {
		switch c := body[i]; {
		case c == '\'' && i+1 < len(body) && body[i+1] == '\'':
			b.WriteByte('\'')
			i += 2
		case c == '\\' && i+1 < len(body):
			i = decodeEscape(&b, body, i+1)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// decodeEscape writes the value of the escape whose first byte after the
// backslash is body[i] and returns the offset just past it.
func decodeEscape(b *strings.Builder, body string, i int) int {
	switch c := body[i]; c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'x':
		return numericEscape(b, body, i+1, 16, 2, false)
	case 'u':
		return numericEscape(b, body, i+1, 16, 4, true)
	case 'U':
		return numericEscape(b, body, i+1, 16, 8, true)
	default:
		if c >= '0' && c <= '7' {
			return numericEscape(b, body, i, 8, 3, false)
		}
		b.WriteByte(c)
	}
	return i + 1
}

// numericEscape decodes up to maxDigits digits in base from body[i] and
// writes the result as a byte, or as a UTF-8 character if char is set. With
// no digits it writes the escape letter body[i-1] itself.
func numericEscape(b *strings.Builder, body string, i, base, maxDigits int, char bool) int {
	j := i
	for j < len(body) && j-i < maxDigits && isDigitIn(body[j], base) {
		j++
	}
	if j == i {
		b.WriteByte(body[i-1])
		return i
	}
	v, _ := strconv.ParseUint(body[i:j], base, 32)
	if char {
		b.WriteRune(rune(v))
	} else {
		b.WriteByte(byte(v))
	}
	return j
}

// isDigitIn reports whether c is a digit in base 8 or 16.
func isDigitIn(c byte, base int) bool {
	if base == 8 {
		return c >= '0' && c <= '7'
	}
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// charPosition converts byte offset pos in src to the 1-based character
// position that sqlstate.Error.Position carries.
func charPosition(src string, pos int) int {
	return utf8.RuneCountInString(src[:pos]) + 1
}
