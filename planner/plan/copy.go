package plan

import (
	"fmt"
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// Copy is a COPY between the client and a table or query, which the server
// runs itself over the COPY sub-protocol.
type Copy struct {
	// FromStdin is true for COPY … FROM STDIN and false for COPY … TO STDOUT.
	FromStdin bool
	// Table is the table name as written, possibly schema-qualified and
	// quoted, such as `public."My T"`; "" for COPY (query) TO.
	Table string
	// Columns is the optional column list, each name as written with any
	// quotes kept, so that it can be pasted into SQL.
	Columns []string
	// Query is the text of the query of COPY (query) TO STDOUT, without the
	// parentheses around it.
	Query string
	// Format is "text", "csv" or, for COPY FROM STDIN only, "binary".
	Format string
	// Delimiter is the field separator, one byte: "\t" by default for text
	// and "," for csv.
	Delimiter string
	// Null is the string that stands for NULL: `\N` by default for text and
	// "" for csv.
	Null string
	// Header says whether the data has a header line.
	Header bool
	// Quote is the csv quote byte, `"` by default; "" for text.
	Quote string
	// Escape is the csv escape byte, Quote by default; "" for text.
	Escape string
	// ForceQuote lists the columns whose values COPY TO in csv quotes even
	// when they need no quoting; ["*"] means all of them.
	ForceQuote []string
}

// ParseCopy parses a COPY statement. ok is false when the statement is a
// COPY that does not involve the client, that is, names no STDIN or
// STDOUT outside parentheses: a server-side file copy that the engine runs
// itself (and whose syntax the engine checks).
//
// Both of Postgres' option syntaxes are accepted: WITH (FORMAT csv, HEADER,
// …) and the older WITH CSV HEADER DELIMITER AS ',' …, with WITH optional in
// both. A malformed client COPY gives ok true and an *sqlstate.Error:
// SyntaxError for bad syntax and unknown or repeated options,
// FeatureNotSupported for what Postgres has but Mallard does not (binary
// format, WHERE, FORCE_NOT_NULL, …) and InvalidParameterValue for bad
// option values. Error positions are relative to text. Text that is not a
// COPY statement at all gives ok false and a SyntaxError.
func ParseCopy(text string) (c Copy, ok bool, err error) {
	p := copyParser{c: newCursor(text), src: text}
	if !p.c.accept("COPY") {
		return Copy{}, false, p.syntaxError(p.c.peek(0), "not a COPY statement")
	}
	if !newCursor(text).findTopLevel("STDIN", "STDOUT") {
		return Copy{}, false, nil
	}
	if err := p.parse(); err != nil {
		return Copy{}, true, err
	}
	return p.out, true, nil
}

// copyParser parses a client COPY statement after its COPY keyword.
type copyParser struct {
	c    *cursor
	src  string
	out  Copy
	opts copyOptions
}

// parse parses the rest of the statement into p.out.
func (p *copyParser) parse() error {
	steps := []func() error{p.parseSource, p.parseDirection, p.parseOptions, p.parseEnd}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return p.opts.apply(&p.out)
}

// parseSource parses "(query)" or "table [(columns)]".
func (p *copyParser) parseSource() error {
	if p.c.peek(0).isWord("BINARY") && isName(p.c.peek(1)) {
		at := p.c.next() // COPY BINARY table, the syntax before 7.3
		if err := p.set("format", at, optionValue{present: true, text: "binary"}); err != nil {
			return err
		}
	}
	if p.c.peek(0).is("(") {
		return p.parseQuery()
	}
	table, err := p.parseQualifiedName()
	if err != nil {
		return err
	}
	p.out.Table = table
	if p.c.peek(0).is("(") {
		p.out.Columns, err = p.parseParenNames()
	}
	return err
}

// parseQuery parses "(query)".
func (p *copyParser) parseQuery() error {
	open := p.c.next()
	closing, ok := p.c.skipGroup()
	if !ok {
		return p.unexpected(closing)
	}
	p.out.Query = strings.Trim(p.src[open.pos+1:closing.pos], " \t\n\r\f\v")
	if p.out.Query == "" {
		return p.unexpected(closing)
	}
	return nil
}

// parseQualifiedName parses "name[.name…]" and returns it as written.
func (p *copyParser) parseQualifiedName() (string, error) {
	var parts []string
	for {
		t := p.c.next()
		if !isName(t) {
			return "", p.unexpected(t)
		}
		parts = append(parts, t.text)
		if !p.c.peek(0).is(".") {
			return strings.Join(parts, "."), nil
		}
		p.c.next()
	}
}

// parseParenNames parses "(name, …)".
func (p *copyParser) parseParenNames() ([]string, error) {
	p.c.next()
	names, err := p.parseNames()
	if err != nil {
		return nil, err
	}
	if t := p.c.next(); !t.is(")") {
		return nil, p.unexpected(t)
	}
	return names, nil
}

// parseNames parses "name, …" and returns the names as written.
func (p *copyParser) parseNames() ([]string, error) {
	var names []string
	for {
		t := p.c.next()
		if !isName(t) {
			return nil, p.unexpected(t)
		}
		names = append(names, t.text)
		if !p.c.peek(0).is(",") {
			return names, nil
		}
		p.c.next()
	}
}

// parseDirection parses "FROM STDIN" or "TO STDOUT". As in Postgres, STDIN
// and STDOUT both name the client whatever the direction.
func (p *copyParser) parseDirection() error {
	switch t := p.c.next(); {
	case t.isWord("FROM") && p.out.Table == "":
		return p.syntaxError(t, "COPY (query) FROM is not supported; COPY a query TO STDOUT")
	case t.isWord("FROM"):
		p.out.FromStdin = true
	case !t.isWord("TO"):
		return p.unexpected(t)
	}
	if t := p.c.next(); !t.isWord("STDIN") && !t.isWord("STDOUT") {
		return p.unexpected(t)
	}
	return nil
}

// parseEnd parses the end of the statement: an optional semicolon and
// nothing after it.
func (p *copyParser) parseEnd() error {
	t := p.c.next()
	if t.isWord("WHERE") {
		return sqlstate.New(sqlstate.FeatureNotSupported, "COPY FROM with WHERE is not supported")
	}
	if t.is(";") {
		t = p.c.next()
	}
	if t.kind != tokEOF {
		return p.unexpected(t)
	}
	return nil
}

// isName reports whether t can be an identifier in a COPY statement: a
// quoted identifier, or a word that is not a number nor FROM or TO.
func isName(t token) bool {
	switch {
	case t.kind == tokIdent:
		return !t.unterminated
	case t.kind != tokWord || t.text[0] >= '0' && t.text[0] <= '9':
		return false
	}
	return !t.isWord("FROM") && !t.isWord("TO")
}

// unexpected returns the SyntaxError Postgres reports for token t.
func (p *copyParser) unexpected(t token) error {
	switch {
	case t.kind == tokEOF:
		return p.syntaxError(t, "syntax error at end of input")
	case t.unterminated && t.kind == tokIdent:
		return p.syntaxError(t, "unterminated quoted identifier")
	case t.unterminated:
		return p.syntaxError(t, "unterminated quoted string")
	}
	return p.syntaxError(t, fmt.Sprintf(`syntax error at or near "%s"`, t.text))
}

// syntaxError returns a SyntaxError positioned at token t.
func (p *copyParser) syntaxError(t token, msg string) error {
	return &sqlstate.Error{
		Code:     sqlstate.SyntaxError,
		Message:  msg,
		Position: charPosition(p.src, t.pos),
	}
}
