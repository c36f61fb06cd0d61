package planner

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/mallard/mallard/planner/plan"
)

func settingOf(v *pg.VariableSetStmt) *plan.Setting {
	s := &plan.Setting{Name: strings.ToLower(v.Name), Local: v.IsLocal}
	switch v.Kind {
	case pg.VariableSetKind_VAR_SET_DEFAULT:
		s.Default = true
	case pg.VariableSetKind_VAR_RESET:
		s.Reset = true
	case pg.VariableSetKind_VAR_RESET_ALL:
		s.Reset, s.Name = true, "all"
	case pg.VariableSetKind_VAR_SET_MULTI:
		s.Name = "transaction"
		if level := isolationLevel(v); level != "" && strings.EqualFold(v.Name, "SESSION CHARACTERISTICS") {
			s.Name, s.Value = "default_transaction_isolation", level
		}
	case pg.VariableSetKind_VAR_SET_CURRENT:
		s.Default = true
	default:
		s.Value, s.List = argsText(v.Args), len(v.Args) > 1
	}
	return s
}

// isolationLevel is the level of a SET ... TRANSACTION ISOLATION LEVEL
// that sets nothing else, or "".
func isolationLevel(v *pg.VariableSetStmt) string {
	if len(v.Args) != 1 || v.Args[0].GetDefElem() == nil || v.Args[0].GetDefElem().Defname != "transaction_isolation" {
		return ""
	}
	return constText(v.Args[0].GetDefElem().Arg)
}

// argsText renders SET's value list as Postgres shows it: items joined by
// ", ", strings without their quotes.
func argsText(args []*pg.Node) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		parts = append(parts, constText(a))
	}
	return strings.Join(parts, ", ")
}

// constText renders a constant (possibly inside a cast, as in SET TIME ZONE
// INTERVAL '...') as text.
func constText(n *pg.Node) string {
	if tc := n.GetTypeCast(); tc != nil {
		return constText(tc.Arg)
	}
	c := n.GetAConst()
	if c == nil {
		return ""
	}
	switch {
	case c.GetSval() != nil:
		return c.GetSval().Sval
	case c.GetIval() != nil:
		return strconv.FormatInt(int64(c.GetIval().Ival), 10)
	case c.GetFval() != nil:
		return c.GetFval().Fval
	case c.GetBoolval() != nil:
		if c.GetBoolval().Boolval {
			return "on"
		}
		return "off"
	}
	return ""
}

// setConfigCalls recognises a SELECT that only calls set_config(name,
// value, is_local), the function form of SET, once or more: PostgREST
// sets a request's parameters with one such SELECT, binding names and
// values as parameters. Each name and value must be a constant or a
// parameter (either possibly cast to text), each is_local a constant, and
// the SELECT must have no clause but its select list, so that every call
// runs exactly once; anything else goes to DuckDB, which has no
// set_config.
func setConfigCalls(n *pg.Node) []plan.Setting {
	sel := n.GetSelectStmt()
	if sel == nil || len(sel.TargetList) == 0 || !onlySelectList(sel) {
		return nil
	}
	calls := make([]plan.Setting, 0, len(sel.TargetList))
	for _, item := range sel.TargetList {
		call, ok := setConfigCall(item.GetResTarget())
		if !ok {
			return nil
		}
		calls = append(calls, call)
	}
	return calls
}

// onlySelectList reports whether a SELECT has nothing but a select list.
func onlySelectList(sel *pg.SelectStmt) bool {
	return len(sel.FromClause) == 0 && sel.WhereClause == nil && len(sel.GroupClause) == 0 &&
		sel.HavingClause == nil && len(sel.SortClause) == 0 && sel.LimitCount == nil && sel.LimitOffset == nil &&
		sel.WithClause == nil && len(sel.DistinctClause) == 0 && len(sel.WindowClause) == 0 &&
		len(sel.LockingClause) == 0 && sel.IntoClause == nil && sel.Op == pg.SetOperation_SETOP_NONE
}

// setConfigCall reads one select-list item of setConfigCalls. A NULL
// value is SET ... TO DEFAULT, as in Postgres.
func setConfigCall(item *pg.ResTarget) (plan.Setting, bool) {
	fc := item.GetVal().GetFuncCall()
	if fc == nil || lastName(fc.Funcname) != "set_config" || len(fc.Args) != 3 ||
		fc.AggStar || fc.Over != nil || len(fc.AggOrder) > 0 || fc.AggFilter != nil {
		return plan.Setting{}, false
	}
	name, value, local := textArg(fc.Args[0]), textArg(fc.Args[1]), fc.Args[2].GetAConst()
	if name == nil || value == nil || local == nil || name.GetAConst() != nil && name.GetAConst().GetSval() == nil {
		return plan.Setting{}, false // a NULL or numeric name goes to DuckDB, which refuses it
	}
	s := plan.Setting{Column: item.Name, Local: isTrue(constText(fc.Args[2]))}
	if pr := name.GetParamRef(); pr != nil {
		s.NameParam = int(pr.Number)
	} else {
		s.Name = strings.ToLower(constText(name))
	}
	switch {
	case value.GetParamRef() != nil:
		s.ValueParam = int(value.GetParamRef().Number)
	case value.GetAConst().GetIsnull():
		s.Default = true
	default:
		s.Value = constText(value)
	}
	return s, true
}

// textArg is a set_config() argument that is a constant or a parameter,
// with any cast to text or varchar taken off; nil for anything else.
func textArg(n *pg.Node) *pg.Node {
	if tc := n.GetTypeCast(); tc != nil {
		switch lastName(tc.TypeName.GetNames()) {
		case "text", "varchar":
			n = tc.Arg
		default:
			return nil
		}
	}
	if n.GetAConst() == nil && n.GetParamRef() == nil {
		return nil
	}
	return n
}

// isTrue reads a boolean constant as Postgres does for is_local.
func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "on", "true", "t", "yes", "y", "1":
		return true
	}
	return false
}

// lastName is the unqualified name of a qualified name list.
func lastName(names []*pg.Node) string {
	if len(names) == 0 {
		return ""
	}
	if s := names[len(names)-1].GetString_(); s != nil {
		return strings.ToLower(s.Sval)
	}
	return ""
}

// currentSetting rewrites current_setting(name [, missing_ok]) of a
// constant name: a Postgres parameter is read from the session's variable
// for it (or is its default); a customized option (see IsCustomParameter)
// from its variable too; any other name is DuckDB's setting, which with
// missing_ok is NULL when there is none, as in Postgres, and text.
func (r *rewriter) currentSetting(n *pg.Node) bool {
	fc := n.GetFuncCall()
	if len(fc.Args) == 0 || len(fc.Args) > 2 || fc.Args[0].GetAConst() == nil || fc.Args[0].GetAConst().GetSval() == nil {
		return false
	}
	name := fc.Args[0].GetAConst().GetSval().Sval
	if def, ok := plan.LookupParameter(name); ok {
		n.Node = coalesce(variableValue(def.Name), pg.MakeAConstStrNode(def.Default, -1)).Node
		r.changed = true
		return true
	}
	missingOK := len(fc.Args) == 2 && fc.Args[1].GetAConst().GetBoolval().GetBoolval()
	if len(fc.Args) == 2 && fc.Args[1].GetAConst().GetBoolval() == nil {
		return false
	}
	if plan.IsCustomParameter(name) {
		r.customSetting(n, name, missingOK)
		return true
	}
	if !missingOK {
		if len(fc.Args) == 1 {
			return false
		}
		fc.Args = fc.Args[:1] // DuckDB's current_setting takes the name alone
		r.changed = true
		return true
	}
	lookup := parseExpr("(SELECT value FROM duckdb_settings() WHERE name = " + quoteLiteral(strings.ToLower(name)) + ")")
	if lookup == nil {
		return false
	}
	n.Node = lookup.Node
	r.changed = true
	return true
}

// customSetting rewrites current_setting of a customized option to the
// session variable that holds its value. The variable exists from the
// first SET, RESET or set_config() of the option in the session on
// (Postgres keeps a placeholder for it from then on, empty after RESET);
// before that the option is unknown: NULL with missing_ok, else 42704.
func (r *rewriter) customSetting(n *pg.Node, name string, missingOK bool) {
	value := variableValue(name)
	if !missingOK {
		unknown := "unrecognized configuration parameter \"" + name + "\" (SQLSTATE 42704)"
		value = coalesce(value, call([]string{"error"}, pg.MakeAConstStrNode(unknown, -1)))
	}
	n.Node = value.Node
	r.changed = true
}

// variableValue reads the session variable that mirrors a parameter (see
// VariableName) as text, NULL if it is not set. It is read when the
// statement runs: getvariable() would be read when DuckDB prepares it, and
// a prepared statement executed after a SET would see the old value.
func variableValue(param string) *pg.Node {
	return parseExpr("(SELECT value FROM duckdb_variables() WHERE name = " + quoteLiteral(plan.VariableName(param)) + ")")
}

func coalesce(args ...*pg.Node) *pg.Node {
	return &pg.Node{Node: &pg.Node_CoalesceExpr{CoalesceExpr: &pg.CoalesceExpr{Args: args, Location: -1}}}
}

// parseExpr reads a SQL expression Mallard writes itself; nil if the
// Postgres parser rejects it.
func parseExpr(expr string) *pg.Node {
	tree, err := pg.Parse("SELECT " + expr)
	if err != nil || len(tree.Stmts) != 1 {
		return nil
	}
	return tree.Stmts[0].Stmt.GetSelectStmt().GetTargetList()[0].GetResTarget().GetVal()
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
