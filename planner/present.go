package planner

import pg "github.com/pganalyze/pg_query_go/v6"

// The aliases storage registers for Postgres types DuckDB lacks, which a
// front end presents under the Postgres type's OID (see storage/pgtypes.go).
const (
	aliasJSONB = "pg_jsonb"
	aliasMoney = "pg_money"
)

// jsonbFuncs are the Postgres functions that return jsonb, which Mallard
// runs as DuckDB's JSON functions (see renamedFuncs).
var jsonbFuncs = map[string]bool{
	"jsonb_build_object": true, "jsonb_build_array": true, "jsonb_agg": true, "jsonb_object_agg": true,
	"to_jsonb": true,
}

// presentColumns gives the columns of the statement's own select list (every
// arm of a UNION) the Postgres types that show in how they are written: a
// reg* cast of a name shows the name under the reg* type, and a jsonb
// expression is jsonb, which a front end prints in jsonb's normalized form.
// Inside the statement both stay what DuckDB computes with, an OID and
// JSON, since DuckDB's functions take those and not the aliases. It runs on
// the tree as the client wrote it, before the other rules.
func (r *rewriter) presentColumns(n *pg.Node) {
	sel := n.GetSelectStmt()
	if sel == nil {
		return
	}
	if sel.Op != pg.SetOperation_SETOP_NONE {
		r.presentColumns(&pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: sel.Larg}})
		r.presentColumns(&pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: sel.Rarg}})
		return
	}
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		if rt == nil || rt.Val == nil {
			continue
		}
		switch {
		case r.presentRegName(rt):
		case isJSONB(rt.Val):
			rt.Val = castTo(rt.Val, aliasJSONB)
			r.changed = true
		}
	}
}

// presentRegName shows a select-list cast of a name to a reg* type as
// Postgres' output function shows the value: the name, spelled as the
// catalog spells it ('timestamptz'::regtype is timestamp with time zone),
// under the reg* type. The name is looked up and the OID found named again,
// so an unknown name fails as the cast does. A regproc name is shown
// unqualified, as Mallard's catalog names functions (see typeCast).
func (r *rewriter) presentRegName(rt *pg.ResTarget) bool {
	tc := rt.Val.GetTypeCast()
	if tc == nil || len(tc.TypeName.ArrayBounds) > 0 || !isNameArg(tc.Arg) {
		return false
	}
	fns, ok := regTypes[lastName(tc.TypeName.Names)]
	switch {
	case !ok || fns[2] == "":
		return false
	case fns[0] != "":
		rt.Val = castTo(pg.MakeFuncCallNode(r.p.catalogFunc(fns[1]), []*pg.Node{rt.Val}, -1), fns[2])
	case tc.Arg.GetAConst() != nil:
		rt.Val = castTo(rt.Val, fns[2])
	default:
		return false
	}
	r.changed = true
	return true
}

// isJSONB reports whether n is jsonb in Postgres by how it is written: a
// cast to jsonb, a call of a function that returns jsonb, or the -> of a
// jsonb value.
func isJSONB(n *pg.Node) bool {
	switch {
	case n.GetTypeCast() != nil:
		tn := n.GetTypeCast().TypeName
		return lastName(tn.Names) == "jsonb" && len(tn.ArrayBounds) == 0
	case n.GetFuncCall() != nil:
		fc := n.GetFuncCall()
		return jsonbFuncs[lastName(fc.Funcname)] && (len(fc.Funcname) == 1 || lastName(fc.Funcname[:1]) == "pg_catalog")
	case n.GetAExpr() != nil:
		e := n.GetAExpr()
		return e.Kind == pg.A_Expr_Kind_AEXPR_OP && lastName(e.Name) == "->" && e.Lexpr != nil && isJSONB(e.Lexpr)
	}
	return false
}
