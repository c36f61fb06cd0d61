package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mallard/mallard/planner/plan"
)

// rewriter rewrites a parse tree in place, recording whether it changed.
// Each rule turns a Postgres idiom DuckDB rejects, or reads differently,
// into what DuckDB runs with Postgres' meaning.
type rewriter struct {
	p       *Planner
	changed bool
	// aliases are the column names nameColumns gave; spliced into the
	// client's text when nothing else changed, else deparsed with the tree.
	aliases []alias
	// paramTypes are the DuckDB types of declared parameters; castParams
	// the parameters the client cast itself.
	paramTypes []string
	castParams map[*pg.ParamRef]bool
	// paramCasts are the types the statement casts its parameters to (see
	// plan.Statement.ParamCasts).
	paramCasts []string
	// arrayParams are the untyped parameters compared with ANY/ALL (see
	// anyParam).
	arrayParams []int
	// root is the statement; vectors the names of the columns in it that
	// may be int2vectors or oidvectors, found when first needed, and
	// fromCalls the function calls that are FROM items (see vectors.go).
	root      *pg.Node
	vectors   map[string]bool
	fromCalls map[*pg.FuncCall]bool
	// typed are the expressions that get a Postgres type last (see
	// noteTypedCast).
	typed []typedCast
}

func (r *rewriter) statement(n *pg.Node) {
	r.root = n
	r.presentColumns(n)
	r.walk(n.ProtoReflect())
	r.typeNotedCasts()
}

// walk visits every message below m: SELECTs before their children (their
// FROM items tell what tableoid is) and ResTargets too (a reg* cast in a
// select list shows a name, elsewhere an oid), every other rule after them.
func (r *rewriter) walk(m protoreflect.Message) {
	switch x := m.Interface().(type) {
	case *pg.SelectStmt:
		r.tableOIDs(x)
	case *pg.ResTarget:
		r.resTarget(x)
	case *pg.RangeFunction:
		r.fromFunctions(x)
	case *pg.Node:
		r.regNameCast(x)
		r.noteTypedCast(x)
		if pr := x.GetTypeCast().GetArg().GetParamRef(); pr != nil {
			r.castParams[pr] = true
			r.noteParamCast(int(pr.Number)-1, x.GetTypeCast().TypeName)
		}
	}
	children(m, func(c protoreflect.Message) { r.walk(c) })
	switch x := m.Interface().(type) {
	case *pg.Node:
		r.node(x)
	case *pg.RangeVar:
		r.rangeVar(x)
	case *pg.TypeName:
		r.typeName(x)
	case *pg.RangeFunction:
		r.rangeFunction(x)
	case *pg.JoinExpr:
		r.outerJoinAny(x)
	}
}

// scalarSetFunctions return one column, which Postgres names after the
// alias of the FROM item: FROM generate_series(1, 3) s makes s the value.
// DuckDB makes s the row, so the alias is given to the column too. The
// catalog's string_to_array is a table macro there.
var scalarSetFunctions = map[string]bool{
	"generate_series": true, "generate_subscripts": true, "unnest": true, "regexp_split_to_table": true,
	"string_to_array": true,
}

func (r *rewriter) rangeFunction(rf *pg.RangeFunction) {
	if rf.Alias == nil || len(rf.Alias.Colnames) > 0 || len(rf.Functions) != 1 || rf.Ordinality {
		return
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(items) == 0 || items[0].GetFuncCall() == nil || !scalarSetFunctions[lastName(items[0].GetFuncCall().Funcname)] {
		return
	}
	rf.Alias.Colnames = []*pg.Node{pg.MakeStrNode(rf.Alias.Aliasname)}
	r.changed = true
}

func (r *rewriter) node(n *pg.Node) {
	switch {
	case n.GetTypeCast() != nil:
		r.zonedConstant(n)
		r.typeCast(n)
	case n.GetCollateClause() != nil:
		r.collate(n)
	case n.GetAExpr() != nil:
		r.operator(n)
	case n.GetFuncCall() != nil:
		r.funcCall(n)
		r.generateSubscripts(n)
	case n.GetAIndirection() != nil:
		r.subscript(n)
	case n.GetParamRef() != nil:
		r.paramRef(n)
	case n.GetSqlvalueFunction() != nil:
		r.sqlValue(n)
	case n.GetColumnRef() != nil:
		r.qualifiedStar(n)
	}
}

// sqlValue answers the SQL-standard user and catalog keywords, which DuckDB
// reads as column names: the user is the session's.
func (r *rewriter) sqlValue(n *pg.Node) {
	switch n.GetSqlvalueFunction().Op {
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_USER, pg.SQLValueFunctionOp_SVFOP_SESSION_USER,
		pg.SQLValueFunctionOp_SVFOP_USER, pg.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
		variable := call([]string{"getvariable"}, pg.MakeAConstStrNode(plan.VariableName("session_authorization"), -1))
		n.Node = &pg.Node_CoalesceExpr{CoalesceExpr: &pg.CoalesceExpr{
			Args: []*pg.Node{variable, pg.MakeAConstStrNode("mallard", -1)}, Location: -1}}
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		n.Node = call([]string{"current_database"}).Node
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		n.Node = call([]string{"current_schema"}).Node
	default:
		return
	}
	r.changed = true
}

// paramRef casts a parameter the client declared a type for, unless the
// statement casts it itself.
func (r *rewriter) paramRef(n *pg.Node) {
	pr := n.GetParamRef()
	i := int(pr.Number) - 1
	if r.castParams[pr] || i < 0 || i >= len(r.paramTypes) || r.paramTypes[i] == "" {
		return
	}
	tn := parseTypeName(r.paramTypes[i])
	if tn == nil {
		return
	}
	r.typeName(tn)
	n.Node = &pg.Node_TypeCast{TypeCast: &pg.TypeCast{
		Arg: &pg.Node{Node: &pg.Node_ParamRef{ParamRef: pr}}, TypeName: tn, Location: -1}}
	r.changed = true
}

// parseTypeName reads a type name with the Postgres parser.
func parseTypeName(t string) *pg.TypeName {
	tree, err := pg.Parse("SELECT NULL::" + t)
	if err != nil || len(tree.Stmts) != 1 {
		return nil
	}
	return tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList()[0].GetResTarget().GetVal().GetTypeCast().GetTypeName()
}

// rangeVar redirects pg_catalog and information_schema relations to
// Mallard's catalog.
func (r *rewriter) rangeVar(rv *pg.RangeVar) {
	if rv.Catalogname != "" {
		return
	}
	name := strings.ToLower(rv.Relname)
	switch schema := strings.ToLower(rv.Schemaname); {
	case (schema == "pg_catalog" || schema == "") && r.p.views[name]:
		rv.Catalogname, rv.Schemaname = r.p.cat.Database, r.p.cat.PGSchema
	case schema == "information_schema" && r.p.infoViews[name]:
		rv.Catalogname, rv.Schemaname = r.p.cat.Database, r.p.cat.InfoSchema
	default:
		return
	}
	r.changed = true
}

// funcCall redirects pg_catalog functions Mallard provides, drops the
// pg_catalog qualification DuckDB does not resolve, and rewrites the calls
// DuckDB reads differently (see the functions it calls).
func (r *rewriter) funcCall(n *pg.Node) {
	fc := n.GetFuncCall()
	name := lastName(fc.Funcname)
	qualifier := ""
	if len(fc.Funcname) == 2 {
		qualifier = strings.ToLower(fc.Funcname[0].GetString_().GetSval())
	}
	if qualifier == "information_schema" && r.p.infoFns[name] && r.p.cat.Database != "" {
		fc.Funcname = names(r.p.cat.Database, r.p.cat.InfoSchema, name)
		r.changed = true
		return
	}
	if qualifier != "" && qualifier != "pg_catalog" || len(fc.Funcname) > 2 {
		return
	}
	if (name == "to_char" || name == "to_timestamp" || name == "to_date") && r.dateFormatCall(n, name) {
		return
	}
	if (name == "extract" || name == "date_part") && r.datePart(n, name) {
		return
	}
	if name == "format" && r.formatCall(n) {
		return
	}
	if name == "mod" && len(fc.Args) == 2 {
		fc.Args[1] = r.guardDivisor(fc.Args[1])
	}
	if name == "current_setting" && r.currentSetting(n) || r.polyfill(n, name) {
		return
	}
	renamed := true
	switch {
	case r.p.macros[name]:
		fc.Funcname = r.p.catalogFunc(name)
	case renamedFuncs[name] != "":
		fc.Funcname = names(renamedFuncs[name])
	case qualifier == "pg_catalog" && sqlSyntaxFuncs[name] != "":
		fc.Funcname = names(sqlSyntaxFuncs[name])
	case qualifier == "pg_catalog":
		fc.Funcname = names(name)
	default:
		renamed = false
	}
	r.changed = r.changed || renamed
	r.functionForms(n, name)
}

// renamedFuncs are Postgres functions DuckDB has under another name.
var renamedFuncs = map[string]string{
	"json_build_object": "json_object", "jsonb_build_object": "json_object",
	"json_build_array": "json_array", "jsonb_build_array": "json_array",
	"json_agg": "json_group_array", "jsonb_agg": "json_group_array",
	"json_object_agg": "json_group_object", "jsonb_object_agg": "json_group_object",
	"to_jsonb": "to_json", "array_to_json": "to_json", "row_to_json": "to_json",
	"string_to_array": "string_split", "every": "bool_and", "btrim": "trim",
}

// sqlSyntaxFuncs are the functions behind SQL syntax (EXTRACT(f FROM x),
// TRIM(BOTH FROM x)) that the parser qualifies with pg_catalog, under the
// names DuckDB has for them.
var sqlSyntaxFuncs = map[string]string{"extract": "date_part", "btrim": "trim", "timezone": "timezone"}

// catalogFunc is the qualified name of a function in Mallard's catalog.
func (p *Planner) catalogFunc(name string) []*pg.Node {
	if p.cat.Database == "" {
		return names(name)
	}
	return names(p.cat.Database, p.cat.PGSchema, name)
}

// operator rewrites Postgres' regular-expression operators (DuckDB's ~ is a
// full match, Postgres' a search), guards divisions against a zero divisor,
// types concatenations with NULL, reads array literals compared with
// ANY/ALL and strips OPERATOR(pg_catalog.op). A rewritten call never has a
// nil argument: pg_query's deparser dereferences it and crashes the
// process.
func (r *rewriter) operator(n *pg.Node) {
	e := n.GetAExpr()
	if e.Kind == pg.A_Expr_Kind_AEXPR_OP_ANY || e.Kind == pg.A_Expr_Kind_AEXPR_OP_ALL {
		if r.anyArray(n) {
			return
		}
		r.arrayConst(e.Rexpr) // x > ANY('{a,b}')
	}
	if len(e.Name) == 0 || e.Kind != pg.A_Expr_Kind_AEXPR_OP && e.Kind != pg.A_Expr_Kind_AEXPR_LIKE && e.Kind != pg.A_Expr_Kind_AEXPR_ILIKE {
		return
	}
	if e.Kind == pg.A_Expr_Kind_AEXPR_LIKE || e.Kind == pg.A_Expr_Kind_AEXPR_ILIKE {
		r.likeEscape(n)
		return
	}
	op := lastName(e.Name)
	if len(e.Name) == 2 {
		e.Name = names(op)
		r.changed = true
	}
	if e.Lexpr == nil {
		return // prefix ~ is Postgres' bitwise NOT, which DuckDB has; a call needs both operands
	}
	var args []*pg.Node
	switch op {
	case "/", "%":
		e.Rexpr = r.guardDivisor(e.Rexpr)
		return
	case "||":
		r.textNull(n)
		return
	case "-":
		r.dateMinus(n)
		return
	case "~", "!~":
		args = []*pg.Node{e.Lexpr, e.Rexpr}
	case "~*", "!~*":
		args = []*pg.Node{e.Lexpr, e.Rexpr, pg.MakeAConstStrNode("i", -1)}
	default:
		return
	}
	match := call([]string{"regexp_matches"}, args...)
	if strings.HasPrefix(op, "!") {
		match = pg.MakeBoolExprNode(pg.BoolExprType_NOT_EXPR, []*pg.Node{match}, -1)
	}
	n.Node = match.Node
	r.changed = true
}

// textNull types the concatenation of a string constant and NULL as text,
// as Postgres resolves it; DuckDB folds it to a NULL of no type, which a
// client would be told is an integer.
func (r *rewriter) textNull(n *pg.Node) {
	e := n.GetAExpr()
	if isNull(e.Lexpr) && isTextArg(e.Rexpr) || isNull(e.Rexpr) && isTextArg(e.Lexpr) {
		n.Node = castTo(&pg.Node{Node: n.Node}, "text").Node
		r.changed = true
	}
}

// isNull reports whether n is the constant NULL.
func isNull(n *pg.Node) bool { return n.GetAConst() != nil && n.GetAConst().Isnull }

// likeEscape gives a LIKE pattern that holds a backslash Postgres' default
// escape character, which DuckDB's LIKE lacks ('java\_%' matches "java_x"),
// through DuckDB's like_escape(string, pattern, escape).
func (r *rewriter) likeEscape(n *pg.Node) {
	e := n.GetAExpr()
	c := e.Rexpr.GetAConst()
	if c == nil || c.GetSval() == nil || !strings.Contains(c.GetSval().Sval, `\`) {
		return
	}
	fn := "like_escape"
	if e.Kind == pg.A_Expr_Kind_AEXPR_ILIKE {
		fn = "ilike_escape"
	}
	match := call([]string{fn}, e.Lexpr, e.Rexpr, pg.MakeAConstStrNode(`\`, -1))
	if strings.HasPrefix(lastName(e.Name), "!") {
		match = pg.MakeBoolExprNode(pg.BoolExprType_NOT_EXPR, []*pg.Node{match}, -1)
	}
	n.Node = match.Node
	r.changed = true
}

// collate drops COLLATE "default", "C" and "POSIX", which are DuckDB's
// binary collation anyway and names it does not know.
func (r *rewriter) collate(n *pg.Node) {
	cc := n.GetCollateClause()
	switch lastName(cc.Collname) {
	case "default", "c", "posix":
		n.Node = cc.Arg.Node
		r.changed = true
	}
}

func names(parts ...string) []*pg.Node {
	out := make([]*pg.Node, len(parts))
	for i, p := range parts {
		out[i] = pg.MakeStrNode(p)
	}
	return out
}

func call(fn []string, args ...*pg.Node) *pg.Node {
	return pg.MakeFuncCallNode(names(fn...), args, -1)
}

// children calls f for each message directly below m: every set message
// field and every element of a repeated one, in field order.
func children(m protoreflect.Message, f func(protoreflect.Message)) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil || fd.IsMap():
		case fd.IsList():
			for l, i := v.List(), 0; i < l.Len(); i++ {
				f(l.Get(i).Message())
			}
		default:
			f(v.Message())
		}
		return true
	})
}

// noteParamCast records that parameter i is cast to tn, as the client
// wrote it.
func (r *rewriter) noteParamCast(i int, tn *pg.TypeName) {
	if i < 0 || i > 65535 || tn == nil {
		return
	}
	name := lastName(tn.Names)
	if len(tn.ArrayBounds) > 0 {
		name += "[]"
	}
	for len(r.paramCasts) <= i {
		r.paramCasts = append(r.paramCasts, "")
	}
	r.paramCasts[i] = name
}
