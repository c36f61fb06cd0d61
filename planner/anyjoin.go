package planner

import (
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// outerJoinAny rewrites x = ANY(array) in the condition of an outer join
// to the catalog's mallard_eq_any(x, array). DuckDB reads x = ANY(array) as
// a subquery over unnest(array) and refuses a subquery in an outer join's
// condition ("Cannot perform non-inner join on subquery"); SQLAlchemy's
// index reflection joins pg_attribute ON a.attnum = ANY(ix.indkey).
// Elsewhere DuckDB's reading stands.
func (r *rewriter) outerJoinAny(j *pg.JoinExpr) {
	if j.Jointype == pg.JoinType_JOIN_INNER || j.Quals == nil {
		return
	}
	r.eqAny(j.Quals.ProtoReflect())
}

// eqAny rewrites every x = ANY(array) below m, except in subqueries, which
// are statements of their own.
func (r *rewriter) eqAny(m protoreflect.Message) {
	switch x := m.Interface().(type) {
	case *pg.SubLink:
		return
	case *pg.Node:
		if e := x.GetAExpr(); e != nil && e.Kind == pg.A_Expr_Kind_AEXPR_OP_ANY && lastName(e.Name) == "=" {
			x.Node = &pg.Node_FuncCall{FuncCall: &pg.FuncCall{
				Funcname: r.p.catalogFunc("mallard_eq_any"), Args: []*pg.Node{e.Lexpr, e.Rexpr}, Location: -1}}
			r.changed = true
			return
		}
	}
	children(m, func(c protoreflect.Message) { r.eqAny(c) })
}
