package plan

import "strings"

// cursor reads the tokens of one piece of SQL text with lookahead.
type cursor struct {
	lx    lexer
	ahead []token
}

// newCursor returns a cursor at the start of src.
func newCursor(src string) *cursor {
	return &cursor{lx: lexer{src: src}}
}

// peek returns the token n places ahead without consuming anything; peek(0)
// is the next token.
func (c *cursor) peek(n int) token {
	for len(c.ahead) <= n {
		c.ahead = append(c.ahead, c.lx.next())
	}
	return c.ahead[n]
}

// next consumes and returns the next token.
func (c *cursor) next() token {
	t := c.peek(0)
	c.ahead = c.ahead[1:]
	return t
}

// keyword returns the next token upper-cased if it is an unquoted word, and
// "" otherwise, without consuming it.
func (c *cursor) keyword() string {
	if t := c.peek(0); t.kind == tokWord {
		return strings.ToUpper(t.text)
	}
	return ""
}

// nextKeyword consumes the next token and returns what keyword would have.
func (c *cursor) nextKeyword() string {
	w := c.keyword()
	c.next()
	return w
}

// accept consumes the next token if it is the word w and reports whether
// it did.
func (c *cursor) accept(w string) bool {
	if c.peek(0).isWord(w) {
		c.next()
		return true
	}
	return false
}

// skipGroup consumes tokens up to and including the ")" that closes an
// already consumed "(". It returns that ")" token, or ok false if the input
// ends first.
func (c *cursor) skipGroup() (closing token, ok bool) {
	depth := 1
	for {
		t := c.next()
		switch {
		case t.kind == tokEOF:
			return t, false
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
			if depth == 0 {
				return t, true
			}
		}
	}
}

// findTopLevel consumes tokens up to the end of the statement (the end of
// the input or a semicolon outside parentheses) and reports whether one of
// words appeared outside parentheses on the way. It stops at the first one.
func (c *cursor) findTopLevel(words ...string) bool {
	depth := 0
	for t := c.next(); t.kind != tokEOF; t = c.next() {
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth = max(depth-1, 0)
		case depth > 0:
		case t.is(";"):
			return false
		case t.kind == tokWord && isOneOf(t.text, words):
			return true
		}
	}
	return false
}

// isOneOf reports whether w equals one of words, ignoring case.
func isOneOf(w string, words []string) bool {
	for _, x := range words {
		if strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}
