package planner

import pg "github.com/pganalyze/pg_query_go/v6"

// nameColumns gives the unnamed expressions of a top-level select list the
// names Postgres gives them (count(*) is "count", 1 is "?column?"), where
// DuckDB would name them after their text. Clients read columns by these
// names.
func (r *rewriter) nameColumns(n *pg.Node) {
	sel := n.GetSelectStmt()
	if sel == nil {
		return
	}
	if sel.Op != pg.SetOperation_SETOP_NONE {
		r.nameColumns(&pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: sel.Larg}})
		return
	}
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		if rt == nil {
			continue
		}
		if rt.Name == "" && rt.Val.GetColumnRef() == nil {
			if name := colName(rt.Val); name != "" {
				rt.Name = name
				r.aliases = append(r.aliases, alias{loc: int(rt.Location), name: name})
			}
		}
		r.untypedParam(rt)
	}
}

// colName is Postgres' FigureColname for the expressions it names without
// looking at columns; "" leaves the name to DuckDB.
func colName(n *pg.Node) string {
	switch {
	case n.GetFuncCall() != nil:
		return lastName(n.GetFuncCall().Funcname)
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		if name := colName(tc.Arg); name != "" && name != "?column?" {
			return name
		}
		if cr := tc.Arg.GetColumnRef(); cr != nil {
			return figureName(tc.Arg, "")
		}
		return typeColName(tc.TypeName)
	case n.GetAConst() != nil, n.GetAExpr() != nil, n.GetBoolExpr() != nil, n.GetParamRef() != nil:
		return "?column?"
	case n.GetCaseExpr() != nil:
		return "case"
	case n.GetCoalesceExpr() != nil:
		return "coalesce"
	case n.GetMinMaxExpr() != nil:
		if n.GetMinMaxExpr().Op == pg.MinMaxOp_IS_GREATEST {
			return "greatest"
		}
		return "least"
	case n.GetNullIfExpr() != nil:
		return "nullif"
	case n.GetSubLink() != nil:
		return subLinkName(n.GetSubLink())
	case n.GetSqlvalueFunction() != nil:
		return sqlValueName(n.GetSqlvalueFunction().Op)
	case n.GetAIndirection() != nil:
		// The last field name, else the name of what is subscripted.
		ind := n.GetAIndirection()
		for i := len(ind.Indirection) - 1; i >= 0; i-- {
			if s := ind.Indirection[i].GetString_(); s != nil {
				return s.Sval
			}
		}
		return colName(ind.Arg)
	}
	return ""
}

func subLinkName(s *pg.SubLink) string {
	switch s.SubLinkType {
	case pg.SubLinkType_EXISTS_SUBLINK:
		return "exists"
	case pg.SubLinkType_ARRAY_SUBLINK:
		return "array"
	case pg.SubLinkType_EXPR_SUBLINK:
		// A scalar subquery is named after its own column.
		sel := s.Subselect.GetSelectStmt()
		if sel == nil || len(sel.TargetList) == 0 {
			return ""
		}
		rt := sel.TargetList[0].GetResTarget()
		if rt.Name != "" {
			return rt.Name
		}
		if name := colName(rt.Val); name != "" {
			return name
		}
		return figureName(rt.Val, "?column?")
	}
	return ""
}

// typeColName is the name Postgres gives a cast constant: its type's name
// as Postgres spells it internally (int4, text, ...).
func typeColName(t *pg.TypeName) string {
	name := lastName(t.Names)
	if name == "" {
		return "?column?"
	}
	return name
}

func sqlValueName(op pg.SQLValueFunctionOp) string {
	switch op {
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		return "current_date"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		return "current_timestamp"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_USER:
		return "current_user"
	case pg.SQLValueFunctionOp_SVFOP_SESSION_USER:
		return "session_user"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		return "current_schema"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return "current_catalog"
	case pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		return "localtimestamp"
	}
	return ""
}

// untypedParam makes a select-list parameter of no declared type text, as
// Postgres resolves it; DuckDB would describe the whole statement as one
// unknown column until the parameter is bound.
func (r *rewriter) untypedParam(rt *pg.ResTarget) {
	pr := rt.Val.GetParamRef()
	if pr == nil {
		return
	}
	if i := int(pr.Number) - 1; i >= 0 && i < len(r.paramTypes) && r.paramTypes[i] != "" {
		return
	}
	rt.Val = &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{
		Arg: rt.Val, TypeName: &pg.TypeName{Names: names("text"), Typemod: -1, Location: -1}, Location: -1}}}
	r.castParams[pr] = true
	r.changed = true
}
