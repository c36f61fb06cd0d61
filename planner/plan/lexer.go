package plan

import "strings"

// tokenKind says what sort of lexical element a token is.
type tokenKind int

const (
	tokEOF    tokenKind = iota // the end of the input
	tokWord                    // an unquoted identifier, keyword or number
	tokIdent                   // a double-quoted identifier
	tokString                  // a string constant: '…', E'…' or $tag$…$tag$
	tokPunct                   // any other single byte, such as ( ) , ; . *
)

// token is one lexical element of SQL text. Whitespace and comments are
// never tokens.
type token struct {
	kind tokenKind
	// text is the token exactly as written, quotes and E prefix included.
	text string
	// pos is the byte offset of text in the lexed source.
	pos int
	// unterminated is set on a quoted token whose closing quote is missing;
	// such a token runs to the end of the input.
	unterminated bool
}

// is reports whether t is the punctuation byte p.
func (t token) is(p string) bool {
	return t.kind == tokPunct && t.text == p
}

// isWord reports whether t is the unquoted word w, ignoring case.
func (t token) isWord(w string) bool {
	return t.kind == tokWord && strings.EqualFold(t.text, w)
}

// lexer splits SQL text into tokens by Postgres' lexical rules: doubled quotes
// inside '…', backslash escapes inside E'…', "" inside "…", dollar quoting, --
// line comments and nested /* */ block comments. It never fails: an
// unterminated quote or comment runs to the end of the input and the engine
// reports the error when it parses the statement.
type lexer struct {
	src string
	pos int
}

// next returns the next token, or a tokEOF token at the end of the input
// (and on every call after that).
func (l *lexer) next() token {
	l.skipSpaceAndComments()
	start := l.pos
	if start >= len(l.src) {
		return token{kind: tokEOF, pos: len(l.src)}
	}
	kind, end, closed := scanToken(l.src, start)
	l.pos = end
	return token{kind: kind, text: l.src[start:end], pos: start, unterminated: !closed}
}

// skipSpaceAndComments advances past whitespace and comments.
func (l *lexer) skipSpaceAndComments() {
	for l.pos < len(l.src) {
		rest := l.src[l.pos:]
		switch {
		case isSpace(rest[0]):
			l.pos++
		case strings.HasPrefix(rest, "--"):
			l.pos = skipLineComment(l.src, l.pos)
		case strings.HasPrefix(rest, "/*"):
			l.pos = skipBlockComment(l.src, l.pos)
		default:
			return
		}
	}
}

// scanToken scans the token that starts at src[i], which is neither
// whitespace nor the start of a comment. It returns the token's kind, the
// offset just past it, and whether a quoted token was closed.
func scanToken(src string, i int) (kind tokenKind, end int, closed bool) {
	c := src[i]
	switch {
	case c == '\'':
		end, closed = scanQuoted(src, i+1, '\'', false)
		return tokString, end, closed
	case c == '"':
		end, closed = scanQuoted(src, i+1, '"', false)
		return tokIdent, end, closed
	case c == '$':
		if end, closed, ok := scanDollar(src, i); ok {
			return tokString, end, closed
		}
	case isWordStart(c):
		end = scanWord(src, i)
		if end == i+1 && (c == 'e' || c == 'E') && end < len(src) && src[end] == '\'' {
			end, closed = scanQuoted(src, end+1, '\'', true)
			return tokString, end, closed
		}
		return tokWord, end, true
	}
	return tokPunct, i + 1, true
}

// scanQuoted scans the body of a quoted token from src[i], just past the
// opening quote q. A doubled q stands for itself; with backslash set, a
// backslash escapes the byte after it. It returns the offset just past the
// closing quote, or len(src) and false when there is none.
func scanQuoted(src string, i int, q byte, backslash bool) (end int, closed bool) {
	for i < len(src) {
		switch c := src[i]; {
		case backslash && c == '\\':
			i += 2
		case c != q:
			i++
		case i+1 < len(src) && src[i+1] == q:
			i += 2
		default:
			return i + 1, true
		}
	}
	return len(src), false
}

// scanDollar scans a dollar-quoted string starting at src[i] == '$'. ok is
// false when src[i] does not open one (a parameter such as $1, or a lone $).
func scanDollar(src string, i int) (end int, closed, ok bool) {
	j := i + 1
	for j < len(src) && isTagByte(src[j], j == i+1) {
		j++
	}
	if j >= len(src) || src[j] != '$' {
		return 0, false, false
	}
	tag := src[i : j+1]
	k := strings.Index(src[j+1:], tag)
	if k < 0 {
		return len(src), false, true
	}
	return j + 1 + k + len(tag), true, true
}

// scanWord returns the offset just past the word that starts at src[i].
func scanWord(src string, i int) int {
	for i < len(src) && (isWordStart(src[i]) || src[i] == '$') {
		i++
	}
	return i
}

// skipLineComment returns the offset of the line break that ends the --
// comment starting at src[i], or len(src).
func skipLineComment(src string, i int) int {
	if k := strings.IndexAny(src[i:], "\r\n"); k >= 0 {
		return i + k
	}
	return len(src)
}

// skipBlockComment returns the offset just past the /* */ comment starting
// at src[i], counting nested comments, or len(src) if it is unterminated.
func skipBlockComment(src string, i int) int {
	depth := 0
	for i < len(src) {
		switch rest := src[i:]; {
		case strings.HasPrefix(rest, "/*"):
			depth++
			i += 2
		case strings.HasPrefix(rest, "*/"):
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return len(src)
}

// isSpace reports whether c is whitespace to Postgres.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isWordStart reports whether c can start an unquoted word: a letter, a
// digit, an underscore or any byte of a multi-byte UTF-8 character.
func isWordStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c >= 0x80
}

// isTagByte reports whether c can appear in a dollar-quote tag; a tag
// cannot start with a digit.
func isTagByte(c byte, first bool) bool {
	if c >= '0' && c <= '9' {
		return !first
	}
	return c != '$' && isWordStart(c)
}
