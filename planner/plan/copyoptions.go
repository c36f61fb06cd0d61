package plan

import (
	"fmt"
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// copyOptions collects the options of a COPY statement as given, before
// defaults are filled in and the combination is checked.
type copyOptions struct {
	seen                           map[string]bool
	format                         string
	delimiter, null, quote, escape *string
	header                         bool
	forceQuote                     []string
}

// optionValue is the value given to a COPY option.
type optionValue struct {
	present bool
	// text is a string constant's value, a quoted identifier without its
	// quotes, or a word lower-cased; "*" for a star.
	text string
	// list is a parenthesised list of names as written, or ["*"].
	list []string
}

// parseOptions parses the options after STDIN or STDOUT in either syntax.
func (p *copyParser) parseOptions() error {
	p.c.accept("WITH")
	if p.c.peek(0).is("(") {
		return p.parseGenericOptions()
	}
	return p.parseLegacyOptions()
}

// parseGenericOptions parses "(name [value], …)".
func (p *copyParser) parseGenericOptions() error {
	p.c.next()
	for {
		name := p.c.next()
		if name.kind != tokWord {
			return p.unexpected(name)
		}
		v, err := p.genericValue()
		if err != nil {
			return err
		}
		if err := p.set(strings.ToLower(name.text), name, v); err != nil {
			return err
		}
		switch t := p.c.next(); {
		case t.is(")"):
			return nil
		case !t.is(","):
			return p.unexpected(t)
		}
	}
}

// genericValue parses the optional value of an option in the (…) syntax: a
// string constant, a word, a number, "*" or a parenthesised name list.
func (p *copyParser) genericValue() (optionValue, error) {
	t := p.c.peek(0)
	switch {
	case t.is(",") || t.is(")"):
		return optionValue{}, nil
	case t.is("("):
		names, err := p.parseParenNames()
		return optionValue{present: true, list: names}, err
	case t.is("*"):
		p.c.next()
		return optionValue{present: true, text: "*", list: []string{"*"}}, nil
	case t.kind == tokWord:
		p.c.next()
		return optionValue{present: true, text: strings.ToLower(t.text)}, nil
	}
	return p.constant()
}

// constant parses a string constant or a quoted identifier.
func (p *copyParser) constant() (optionValue, error) {
	t := p.c.next()
	switch {
	case t.unterminated || t.kind != tokString && t.kind != tokIdent:
		return optionValue{}, p.unexpected(t)
	case t.kind == tokIdent:
		text := strings.ReplaceAll(t.text[1:len(t.text)-1], `""`, `"`)
		return optionValue{present: true, text: text}, nil
	}
	return optionValue{present: true, text: stringValue(t.text)}, nil
}

// parseLegacyOptions parses the options of the pre-9.0 syntax, such as
// CSV HEADER DELIMITER AS ',' NULL AS 'x' FORCE QUOTE *.
func (p *copyParser) parseLegacyOptions() error {
	for t := p.c.peek(0); t.kind == tokWord && !t.isWord("WHERE"); t = p.c.peek(0) {
		p.c.next()
		if err := p.legacyOption(t); err != nil {
			return err
		}
	}
	return nil
}

// legacyOption parses the rest of the old-syntax option that starts with
// the word t.
func (p *copyParser) legacyOption(t token) error {
	switch name := strings.ToLower(t.text); name {
	case "binary", "csv":
		return p.set("format", t, optionValue{present: true, text: name})
	case "header", "freeze":
		return p.set(name, t, optionValue{})
	case "delimiter", "null", "quote", "escape", "encoding":
		p.c.accept("AS")
		if p.c.peek(0).kind != tokString {
			return p.unexpected(p.c.peek(0))
		}
		v, err := p.constant()
		if err != nil {
			return err
		}
		return p.set(name, t, v)
	case "force":
		return p.legacyForce(t)
	}
	return p.unknownOption(t)
}

// legacyForce parses the rest of FORCE QUOTE { * | name, … }, FORCE NOT
// NULL … or FORCE NULL ….
func (p *copyParser) legacyForce(t token) error {
	switch {
	case p.c.accept("QUOTE"):
		if p.c.peek(0).is("*") {
			p.c.next()
			return p.set("force_quote", t, optionValue{present: true, list: []string{"*"}})
		}
		names, err := p.parseNames()
		if err != nil {
			return err
		}
		return p.set("force_quote", t, optionValue{present: true, list: names})
	case p.c.peek(0).isWord("NOT") && p.c.peek(1).isWord("NULL"):
		return p.set("force_not_null", t, optionValue{})
	case p.c.accept("NULL"):
		return p.set("force_null", t, optionValue{})
	}
	return p.unexpected(p.c.peek(0))
}

// set records option name, given at token at, with value v. Every option
// may be given once.
func (p *copyParser) set(name string, at token, v optionValue) error {
	o := &p.opts
	if o.seen[name] {
		return p.syntaxError(at, "conflicting or redundant options")
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[name] = true
	switch name {
	case "format":
		return p.setFormat(at, v)
	case "header", "freeze":
		return p.setBool(name, at, v)
	case "delimiter", "null", "quote", "escape":
		return p.setString(name, at, v)
	case "encoding":
		return p.checkEncoding(at, v)
	case "force_quote":
		if len(v.list) == 0 {
			return p.syntaxError(at, `argument to option "force_quote" must be a list of column names`)
		}
		o.forceQuote = v.list
		return nil
	case "force_not_null", "force_null", "on_error", "default", "log_verbosity", "reject_limit":
		return sqlstate.New(sqlstate.FeatureNotSupported, "COPY option %s is not supported", name)
	}
	return p.unknownOption(at)
}

// setFormat records the FORMAT option: text or csv.
func (p *copyParser) setFormat(at token, v optionValue) error {
	text, err := p.requireText("format", at, v)
	if err != nil {
		return err
	}
	switch format := strings.ToLower(text); format {
	case "text", "csv", "binary":
		p.opts.format = format
		return nil
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, `COPY format "%s" not recognized`, text)
}

// setBool records HEADER (or accepts FREEZE, which only changes how
// Postgres writes pages). No value means true.
func (p *copyParser) setBool(name string, at token, v optionValue) error {
	on := true
	switch {
	case !v.present:
	case v.list != nil:
		return p.syntaxError(at, fmt.Sprintf("%s requires a Boolean value", name))
	case name == "header" && strings.EqualFold(v.text, "match"):
		return sqlstate.New(sqlstate.FeatureNotSupported, "COPY HEADER MATCH is not supported")
	default:
		switch strings.ToLower(v.text) {
		case "true", "on", "1":
		case "false", "off", "0":
			on = false
		default:
			return p.syntaxError(at, fmt.Sprintf("%s requires a Boolean value", name))
		}
	}
	if name == "header" {
		p.opts.header = on
	}
	return nil
}

// setString records DELIMITER, NULL, QUOTE or ESCAPE.
func (p *copyParser) setString(name string, at token, v optionValue) error {
	text, err := p.requireText(name, at, v)
	if err != nil {
		return err
	}
	switch name {
	case "delimiter":
		p.opts.delimiter = &text
	case "null":
		p.opts.null = &text
	case "quote":
		p.opts.quote = &text
	case "escape":
		p.opts.escape = &text
	}
	return nil
}

// checkEncoding accepts ENCODING when it names UTF8, the only encoding
// Mallard speaks.
func (p *copyParser) checkEncoding(at token, v optionValue) error {
	text, err := p.requireText("encoding", at, v)
	if err != nil {
		return err
	}
	switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(text)) {
	case "utf8", "unicode":
		return nil
	}
	return sqlstate.New(sqlstate.FeatureNotSupported, `COPY ENCODING "%s" is not supported; use UTF8`, text)
}

// requireText returns the single value of option name, given at token at.
func (p *copyParser) requireText(name string, at token, v optionValue) (string, error) {
	switch {
	case !v.present:
		return "", p.syntaxError(at, fmt.Sprintf("%s requires a parameter", name))
	case v.list != nil && v.text != "*":
		return "", p.syntaxError(at, fmt.Sprintf("%s requires a single value, not a list", name))
	}
	return v.text, nil
}

// unknownOption returns the SyntaxError for an option that COPY does not
// have.
func (p *copyParser) unknownOption(at token) error {
	return p.syntaxError(at, fmt.Sprintf(`option "%s" not recognized`, strings.ToLower(at.text)))
}
