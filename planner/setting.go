package planner

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Setting is a SET, RESET, SHOW or set_config() of a run-time parameter.
type Setting struct {
	// Name is the parameter, lower-cased; "all" for SHOW ALL and RESET ALL;
	// "transaction" for SET [SESSION CHARACTERISTICS AS] TRANSACTION ...
	Name string
	// Value is the new value as text; "" with Default for SET x TO DEFAULT.
	Value   string
	Default bool
	Reset   bool
	Show    bool
	// Local is SET LOCAL (or set_config's is_local): the value lasts until
	// the end of the transaction.
	Local bool
}

func settingOf(v *pg.VariableSetStmt) *Setting {
	s := &Setting{Name: strings.ToLower(v.Name), Local: v.IsLocal}
	switch v.Kind {
	case pg.VariableSetKind_VAR_SET_DEFAULT:
		s.Default = true
	case pg.VariableSetKind_VAR_RESET:
		s.Reset = true
	case pg.VariableSetKind_VAR_RESET_ALL:
		s.Reset, s.Name = true, "all"
	case pg.VariableSetKind_VAR_SET_MULTI:
		s.Name = "transaction"
	case pg.VariableSetKind_VAR_SET_CURRENT:
		s.Default = true
	default:
		s.Value = argsText(v.Args)
	}
	return s
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

// setConfigCall recognises `SELECT set_config('name', 'value', is_local)`,
// the function form of SET, when it is the whole statement.
func setConfigCall(n *pg.Node) *Setting {
	sel := n.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || len(sel.FromClause) > 0 || sel.WhereClause != nil {
		return nil
	}
	fc := sel.TargetList[0].GetResTarget().GetVal().GetFuncCall()
	if fc == nil || lastName(fc.Funcname) != "set_config" || len(fc.Args) != 3 {
		return nil
	}
	name, value := fc.Args[0].GetAConst(), fc.Args[1].GetAConst()
	if name == nil || name.GetSval() == nil || value == nil {
		return nil
	}
	local := constText(fc.Args[2])
	return &Setting{Name: strings.ToLower(name.GetSval().Sval), Value: constText(fc.Args[1]),
		Local: local == "on" || local == "true" || local == "t"}
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
