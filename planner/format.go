package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// formatCall rewrites Postgres' format('%I.%I', a, b), whose specifiers
// DuckDB's format (fmt's {} syntax) does not read, into concat of the
// pieces: %s is the text of the argument, %I quote_ident of it, %L
// quote_literal of it, %% a percent sign. A format string that is not a
// constant, or uses positions or widths, is left alone.
func (r *rewriter) formatCall(n *pg.Node) bool {
	fc := n.GetFuncCall()
	if len(fc.Args) == 0 {
		return false
	}
	c := fc.Args[0].GetAConst()
	if c == nil || c.GetSval() == nil {
		return false
	}
	tmpl, args := c.GetSval().Sval, fc.Args[1:]
	var parts []*pg.Node
	var lit strings.Builder
	next := 0
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '%' {
			lit.WriteByte(tmpl[i])
			continue
		}
		if i+1 == len(tmpl) {
			return false
		}
		i++
		spec := tmpl[i]
		if spec == '%' {
			lit.WriteByte('%')
			continue
		}
		if next >= len(args) || (spec != 's' && spec != 'I' && spec != 'L') {
			return false
		}
		if lit.Len() > 0 {
			parts = append(parts, pg.MakeAConstStrNode(lit.String(), -1))
			lit.Reset()
		}
		parts = append(parts, formatPiece(spec, args[next], r.p))
		next++
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, pg.MakeAConstStrNode(lit.String(), -1))
	}
	n.Node = call([]string{"concat"}, parts...).Node
	r.changed = true
	return true
}

func formatPiece(spec byte, arg *pg.Node, p *Planner) *pg.Node {
	text := &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{
		Arg: arg, TypeName: &pg.TypeName{Names: names("text"), Typemod: -1, Location: -1}, Location: -1}}}
	switch spec {
	case 'I':
		return &pg.Node{Node: &pg.Node_FuncCall{FuncCall: &pg.FuncCall{Funcname: p.catalogFunc("quote_ident"), Args: []*pg.Node{text}, Location: -1}}}
	case 'L':
		return &pg.Node{Node: &pg.Node_FuncCall{FuncCall: &pg.FuncCall{Funcname: p.catalogFunc("quote_literal"), Args: []*pg.Node{text}, Location: -1}}}
	}
	return text
}
