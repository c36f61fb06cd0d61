package planner

import (
	pg "github.com/pganalyze/pg_query_go/v6"
)

// Postgres types the array on the right of x op ANY(...) / ALL(...) from x
// when the array is an untyped parameter or an untyped '{...}' constant:
// name = ANY($1) takes a text[] for a text name and a date[] for a date.
// DuckDB reads x = ANY(arr) as a subquery over unnest(arr) and can neither
// type a bare parameter there ("UNNEST not supported here") nor compare a
// date with the strings of a constant. The rules here give DuckDB what it
// needs for both.

// anyArray rewrites x op ANY/ALL(arr) for an untyped arr and reports
// whether it did. n is the A_Expr.
func (r *rewriter) anyArray(n *pg.Node) bool {
	e := n.GetAExpr()
	if e.Lexpr == nil || e.Rexpr == nil {
		return false
	}
	if pr := e.Rexpr.GetParamRef(); pr != nil {
		return r.anyParam(n, pr)
	}
	return r.anyConst(n)
}

// anyParam rewrites x op ANY/ALL($n), where the client declared no type
// for $n, to list_contains($n, x): there DuckDB infers $n to be a list of
// x's type. The statement records $n in ArrayParams; the server, having
// learnt the type from DuckDB's prepare, plans the client's text again
// with that type declared (PlanParse), and the cast parameter keeps
// Postgres' operator and its NULL semantics. list_contains stands in
// only if DuckDB infers no list type.
func (r *rewriter) anyParam(n *pg.Node, pr *pg.ParamRef) bool {
	i := int(pr.Number) - 1
	if i < 0 || r.castParams[pr] || i < len(r.paramTypes) && r.paramTypes[i] != "" {
		return false
	}
	e := n.GetAExpr()
	n.Node = call([]string{"list_contains"}, e.Rexpr, e.Lexpr).Node
	r.arrayParams = append(r.arrayParams, i)
	r.changed = true
	return true
}

// anyConst rewrites x = ANY('{a,b}') to x IN ('a', 'b') and x <> ALL('{a,b}')
// to x NOT IN ('a', 'b'): DuckDB casts each string constant of an IN list
// to x's type, as Postgres reads the array by x's type. The NULL semantics
// are the same; an empty array gives false and true, as in Postgres. Other
// operators and arrays of more than one dimension are left to arrayConst.
func (r *rewriter) anyConst(n *pg.Node) bool {
	e := n.GetAExpr()
	op := lastName(e.Name)
	any := e.Kind == pg.A_Expr_Kind_AEXPR_OP_ANY
	if !(any && op == "=" || !any && op == "<>") {
		return false
	}
	c := e.Rexpr.GetAConst()
	if c == nil || c.GetSval() == nil {
		return false
	}
	arr, ok := parseArray(c.GetSval().Sval)
	if !ok {
		return false
	}
	elems := arr.GetAArrayExpr().GetElements()
	for _, el := range elems {
		if el.GetAConst() == nil {
			return false // a nested array
		}
	}
	r.changed = true
	if len(elems) == 0 {
		n.Node = &pg.Node_AConst{AConst: &pg.A_Const{Val: &pg.A_Const_Boolval{Boolval: &pg.Boolean{Boolval: !any}}, Location: -1}}
		return true
	}
	e.Kind, e.Name, e.Rexpr = pg.A_Expr_Kind_AEXPR_IN, names(op), &pg.Node{Node: &pg.Node_List{List: &pg.List{Items: elems}}}
	return true
}
