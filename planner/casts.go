package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// typeSubstitutes are Postgres types DuckDB lacks, as the DuckDB type that
// holds their values. The reg* types are handled by regCast, int2vector
// and oidvector by vectorElems.
var typeSubstitutes = map[string]string{
	"oid": "int8", "xid": "int8", "xid8": "int8", "cid": "int8",
	"name": "varchar", "char": "varchar",
	"pg_node_tree": "varchar", "aclitem": "varchar", "regconfig": "int8",
	"jsonb": "json", "citext": "varchar", "money": aliasMoney,
}

// standardTypes are the pg_catalog types the deparser prints in SQL
// spelling (pg_catalog.int8 as bigint), so they keep their qualification.
var standardTypes = map[string]bool{
	"int2": true, "int4": true, "int8": true, "float4": true, "float8": true, "bool": true,
	"varchar": true, "bpchar": true, "numeric": true, "timestamp": true, "timestamptz": true,
	"time": true, "timetz": true, "interval": true, "bit": true, "varbit": true,
}

// typeNames spells a type so that the deparser prints what DuckDB reads.
func typeNames(name string) []*pg.Node {
	if standardTypes[name] {
		return names("pg_catalog", name)
	}
	return names(name)
}

// regTypes map a reg* type to Mallard's macros, from a name to an oid and
// from an oid to a name, and to the alias of storage's that a select list
// shows the name under, so that it goes out as the reg* type.
var regTypes = map[string][3]string{
	"regclass":     {"mallard_regclass", "mallard_regclass_name", "pg_regclass"},
	"regtype":      {"mallard_regtype", "mallard_regtype_name", "pg_regtype"},
	"regproc":      {"", "mallard_regproc_name", "pg_regproc"},
	"regprocedure": {"", "mallard_regproc_name", ""},
	"regnamespace": {"mallard_regnamespace", "mallard_regnamespace_name", "pg_regnamespace"},
	"regrole":      {"", "", ""},
	"regoper":      {"", "", ""},
}

// typeName strips pg_catalog from type names and substitutes types DuckDB
// lacks, wherever a type is named (casts, column definitions).
func (r *rewriter) typeName(t *pg.TypeName) {
	name := lastName(t.Names)
	if elem, ok := vectorElems[name]; ok && len(t.ArrayBounds) == 0 {
		t.Names, t.ArrayBounds = names(elem), []*pg.Node{pg.MakeIntNode(-1)}
		r.changed = true
		return
	}
	if sub, ok := typeSubstitutes[name]; ok {
		t.Names = typeNames(sub)
		r.changed = true
		return
	}
	if len(t.Names) == 2 && strings.EqualFold(t.Names[0].GetString_().GetSval(), "pg_catalog") && !standardTypes[name] {
		t.Names = names(name)
		r.changed = true
	}
}

// typeCast turns x::regclass (and the other reg* types) into a lookup: a
// name (a string or a parameter) becomes an oid; any other value keeps its
// oid, as a BIGINT, unless it is cast on to text, which shows the name.
// It also reads Postgres' array and boolean literals (see constants.go);
// a bytea literal needs nothing, as storage casts text to a BLOB as
// Postgres does.
func (r *rewriter) typeCast(n *pg.Node) {
	tc := n.GetTypeCast()
	target := lastName(tc.TypeName.Names)
	switch {
	case target == "regtype" && len(tc.TypeName.ArrayBounds) > 0 && !isNameArg(tc.Arg):
		r.regTypeArray(tc)
		return
	case len(tc.TypeName.ArrayBounds) > 0:
		r.arrayConst(tc.Arg)
		return
	case target == "bool" && r.boolConst(n):
		return
	}
	fns, ok := regTypes[target]
	if !ok || len(tc.TypeName.ArrayBounds) > 0 {
		return
	}
	switch {
	case isNameArg(tc.Arg) && fns[0] != "":
		arg := tc.Arg
		if arg.GetParamRef() != nil { // keep the parameter typed, as the cast did
			arg = &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{
				Arg: arg, TypeName: &pg.TypeName{Names: typeNames("varchar"), Typemod: -1, Location: -1}, Location: -1}}}
		}
		n.Node = &pg.Node_FuncCall{FuncCall: &pg.FuncCall{
			Funcname: r.p.catalogFunc(fns[0]), Args: []*pg.Node{arg}, Location: -1}}
	case tc.Arg.GetAConst() != nil && tc.Arg.GetAConst().GetSval() != nil && (target == "regproc" || target == "regprocedure"):
		// Mallard's catalog shows functions by name (typinput is 'array_in'),
		// so a function name compares as its unqualified name.
		name := tc.Arg.GetAConst().GetSval().Sval
		name = name[strings.LastIndex(name, ".")+1:]
		n.Node = pg.MakeAConstStrNode(name, -1).Node
	default:
		tc.TypeName = &pg.TypeName{Names: typeNames("int8"), Typemod: -1, Location: -1}
	}
	r.changed = true
}

// regTypeArray turns oids::regtype[] into the list of the names the oids
// stand for, under storage's regtype alias, so that it goes out as
// regtype[] and reads as Postgres shows it: clients cast it to text[] for
// the names (pgcli's COALESCE(proallargtypes::regtype[],
// proargtypes::regtype[])::text[]). Unlike a scalar regtype, which stays
// an oid until shown, the list holds names: two regtype[] compare by name.
func (r *rewriter) regTypeArray(tc *pg.TypeCast) {
	tc.Arg = &pg.Node{Node: &pg.Node_FuncCall{FuncCall: &pg.FuncCall{
		Funcname: r.p.catalogFunc("mallard_regtype_names"), Args: []*pg.Node{tc.Arg}, Location: -1}}}
	tc.TypeName = &pg.TypeName{Names: names(regTypes["regtype"][2]), ArrayBounds: []*pg.Node{pg.MakeIntNode(-1)},
		Typemod: -1, Location: -1}
	r.changed = true
}

// regNameCast shows x::regtype::text (any reg* type) as the name x stands
// for. It runs before the inner cast is rewritten to an oid. A name goes
// to its oid and back, so that it comes out as Postgres shows it
// ('int4'::regtype::text is integer); an unknown name fails as the cast
// to the oid does.
func (r *rewriter) regNameCast(n *pg.Node) {
	tc := n.GetTypeCast()
	if tc == nil {
		return
	}
	target := lastName(tc.TypeName.Names)
	inner := tc.Arg.GetTypeCast()
	if inner == nil || (target != "text" && target != "varchar") {
		return
	}
	fns, ok := regTypes[lastName(inner.TypeName.Names)]
	if !ok || fns[1] == "" {
		return
	}
	arg := inner.Arg
	if isNameArg(arg) {
		if fns[0] == "" {
			return
		}
		arg = &pg.Node{Node: &pg.Node_FuncCall{FuncCall: &pg.FuncCall{
			Funcname: r.p.catalogFunc(fns[0]), Args: []*pg.Node{arg}, Location: -1}}}
	}
	n.Node = &pg.Node_FuncCall{FuncCall: &pg.FuncCall{
		Funcname: r.p.catalogFunc(fns[1]), Args: []*pg.Node{arg}, Location: -1}}
	r.changed = true
}

// isNameArg reports whether a reg* cast's argument is a name rather than an
// oid: a string constant, a parameter (clients bind names, as psycopg's
// 'uuid'::regtype), text built by format(), concat(), quote_ident() or ||,
// or anything cast to text. A column is taken to hold an oid.
func isNameArg(n *pg.Node) bool {
	switch {
	case n.GetAConst() != nil:
		return n.GetAConst().GetSval() != nil
	case n.GetParamRef() != nil:
		return true
	case n.GetFuncCall() != nil:
		switch lastName(n.GetFuncCall().Funcname) {
		case "format", "concat", "concat_ws", "quote_ident", "lower", "upper", "trim", "btrim", "replace":
			return true
		}
	case n.GetAExpr() != nil:
		return lastName(n.GetAExpr().Name) == "||"
	case n.GetTypeCast() != nil:
		switch lastName(n.GetTypeCast().TypeName.Names) {
		case "text", "varchar", "name", "bpchar":
			return true
		}
	}
	return false
}

// resTarget shows a reg* cast of a column in a select list as the name it
// stands for, as Postgres' output function does, under the reg* type (see
// regTypes). A cast of a name is presentRegName's.
func (r *rewriter) resTarget(rt *pg.ResTarget) {
	tc := rt.Val.GetTypeCast()
	if tc == nil || isNameArg(tc.Arg) {
		return
	}
	fns, ok := regTypes[lastName(tc.TypeName.Names)]
	if !ok || fns[1] == "" || len(tc.TypeName.ArrayBounds) > 0 {
		return
	}
	if rt.Name == "" {
		rt.Name = colName(rt.Val)
	}
	rt.Val = &pg.Node{Node: &pg.Node_FuncCall{FuncCall: &pg.FuncCall{
		Funcname: r.p.catalogFunc(fns[1]), Args: []*pg.Node{tc.Arg}, Location: -1}}}
	if fns[2] != "" {
		rt.Val = castTo(rt.Val, fns[2])
	}
	r.changed = true
}
