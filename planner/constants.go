package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Postgres reads a string constant by the type it is cast to, or compared
// with, through that type's input function; DuckDB's casts read fewer
// spellings. The rules here read the constants the way Postgres does.

// boolConst rewrites a string constant cast to boolean to the boolean it
// spells in Postgres ('yes', 'off', 't', '1', ...: any unambiguous prefix
// of true, false, yes and no, on, off, 1 and 0, in any case). A string
// Postgres rejects is left for DuckDB to reject too.
func (r *rewriter) boolConst(n *pg.Node) bool {
	tc := n.GetTypeCast()
	c := tc.Arg.GetAConst()
	if c == nil || c.GetSval() == nil || len(tc.TypeName.ArrayBounds) > 0 {
		return false
	}
	v, ok := parseBool(c.GetSval().Sval)
	if !ok {
		return false
	}
	tc.Arg = &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Val: &pg.A_Const_Boolval{Boolval: &pg.Boolean{Boolval: v}}, Location: -1}}}
	r.changed = true
	return true
}

// parseBool is Postgres' boolin.
func parseBool(s string) (value, ok bool) {
	s = strings.ToLower(strings.Trim(s, " \t\n\r\f\v"))
	prefixOf := func(word string, min int) bool { return len(s) >= min && strings.HasPrefix(word, s) }
	switch {
	case prefixOf("true", 1), prefixOf("yes", 1), prefixOf("on", 2), s == "1":
		return true, true
	case prefixOf("false", 1), prefixOf("no", 1), prefixOf("off", 2), s == "0":
		return false, true
	}
	return false, false
}

// arrayConst rewrites an array literal such as '{1,2}' or '{"a b",NULL}'
// to an ARRAY[...] of its elements as string constants, which DuckDB casts
// element by element; DuckDB's own list text is '[1, 2]'. n is the
// constant, cast to an array type or compared with = ANY/ALL. A malformed
// literal is left as it is.
func (r *rewriter) arrayConst(n *pg.Node) {
	c := n.GetAConst()
	if c == nil || c.GetSval() == nil {
		return
	}
	arr, ok := parseArray(c.GetSval().Sval)
	if !ok {
		return
	}
	n.Node = arr.Node
	r.changed = true
}

// parseArray reads Postgres' array text: braces around elements separated
// by commas, each either double-quoted (with backslash escapes) or bare
// (trimmed, NULL in any case meaning NULL, backslashes escaping), or
// itself a braced array.
func parseArray(s string) (*pg.Node, bool) {
	p := arrayParser{s: s}
	p.space()
	arr, ok := p.array()
	p.space()
	return arr, ok && p.i == len(s)
}

type arrayParser struct {
	s string
	i int
}

func (p *arrayParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r\f\v", p.s[p.i]) >= 0 { // Postgres' array_isspace
		p.i++
	}
}

// array reads a braced array at p.i.
func (p *arrayParser) array() (*pg.Node, bool) {
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		return nil, false
	}
	p.i++
	var elems []*pg.Node
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return arrayExpr(elems), true
	}
	for {
		p.space()
		elem, ok := p.element()
		if !ok {
			return nil, false
		}
		elems = append(elems, elem)
		p.space()
		if p.i >= len(p.s) {
			return nil, false
		}
		p.i++
		switch p.s[p.i-1] {
		case '}':
			return arrayExpr(elems), true
		case ',':
		default:
			return nil, false
		}
	}
}

// element reads one element at p.i: a nested array, a quoted string or a
// bare one.
func (p *arrayParser) element() (*pg.Node, bool) {
	if p.i >= len(p.s) {
		return nil, false
	}
	switch p.s[p.i] {
	case '{':
		return p.array()
	case '"':
		p.i++
		var b strings.Builder
		for p.i < len(p.s) {
			c := p.s[p.i]
			p.i++
			switch {
			case c == '"':
				return pg.MakeAConstStrNode(b.String(), -1), true
			case c == '\\' && p.i < len(p.s):
				b.WriteByte(p.s[p.i])
				p.i++
			default:
				b.WriteByte(c)
			}
		}
		return nil, false
	}
	var b strings.Builder
	escaped := false // an escaped character keeps a bare NULL from meaning NULL
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == ',' || c == '}' || c == '{' || c == '"' {
			break
		}
		p.i++
		if c == '\\' && p.i < len(p.s) {
			c, escaped = p.s[p.i], true
			p.i++
		}
		b.WriteByte(c)
	}
	text := strings.TrimRight(b.String(), " \t\n\r\f\v")
	switch {
	case text == "":
		return nil, false
	case !escaped && strings.EqualFold(text, "null"):
		return &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Isnull: true, Location: -1}}}, true
	}
	return pg.MakeAConstStrNode(text, -1), true
}

func arrayExpr(elems []*pg.Node) *pg.Node {
	return &pg.Node{Node: &pg.Node_AArrayExpr{AArrayExpr: &pg.A_ArrayExpr{Elements: elems, Location: -1}}}
}
