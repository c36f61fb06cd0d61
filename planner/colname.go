package planner

import pg "github.com/pganalyze/pg_query_go/v6"

// nameColumns gives the unnamed expressions of a top-level select list the
// names Postgres gives them (count(*) is "count", 1 is "?column?"), where
// DuckDB would name them after their text, and folds the aliases the client
// wrote unquoted to lower case (AS Total is "total"), which DuckDB keeps as
// written. Clients read columns by these names.
func (r *rewriter) nameColumns(n *pg.Node) {
	sel := n.GetSelectStmt()
	if sel == nil {
		return
	}
	setOp := sel.Op != pg.SetOperation_SETOP_NONE
	for sel.Op != pg.SetOperation_SETOP_NONE {
		sel = sel.Larg
	}
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		if rt == nil {
			continue
		}
		switch {
		case rt.Name != "":
			r.aliases = append(r.aliases, alias{loc: int(rt.Location), name: rt.Name, written: true})
		case rt.Val.GetColumnRef() == nil && !expandsStar(rt.Val): // DuckDB names a column after its catalog name, as Postgres does
			rt.Name = colName(rt.Val)
			r.aliases = append(r.aliases, alias{loc: int(rt.Location), name: rt.Name})
		}
		if !setOp && isNull(rt.Val) {
			// Postgres resolves an untyped NULL in a select list to text; a
			// UNION resolves it by its other arms.
			rt.Val = castTo(rt.Val, "text")
			r.changed = true
		}
		r.untypedParam(rt)
	}
}

// expandsStar reports whether n is (x).*, which is several columns.
func expandsStar(n *pg.Node) bool {
	ind := n.GetAIndirection()
	return ind != nil && len(ind.Indirection) > 0 && ind.Indirection[len(ind.Indirection)-1].GetAStar() != nil
}

// colName is the name Postgres gives an unnamed select-list expression.
func colName(n *pg.Node) string {
	if name, _ := figureColname(n); name != "" {
		return name
	}
	return "?column?"
}

// figureColname is Postgres' FigureColnameInternal: the name an expression
// gives its column and how strong that name is: 2 for a column, function
// or keyword name, 1 for the fallback of a cast (its type) or a CASE, 0
// for none ("?column?").
func figureColname(n *pg.Node) (string, int) {
	switch {
	case n.GetColumnRef() != nil:
		if fields := n.GetColumnRef().Fields; len(fields) > 0 && fields[len(fields)-1].GetString_() != nil {
			return fields[len(fields)-1].GetString_().Sval, 2
		}
	case n.GetAIndirection() != nil:
		// The last field name, else the name of what is subscripted.
		ind := n.GetAIndirection()
		for i := len(ind.Indirection) - 1; i >= 0; i-- {
			if s := ind.Indirection[i].GetString_(); s != nil {
				return s.Sval, 2
			}
		}
		return figureColname(ind.Arg)
	case n.GetFuncCall() != nil:
		return rawLastName(n.GetFuncCall().Funcname), 2
	case n.GetAExpr() != nil:
		if n.GetAExpr().Kind == pg.A_Expr_Kind_AEXPR_NULLIF {
			return "nullif", 2
		}
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		if name, strength := figureColname(tc.Arg); strength > 1 {
			return name, strength
		}
		return rawLastName(tc.TypeName.Names), 1
	case n.GetCollateClause() != nil:
		return figureColname(n.GetCollateClause().Arg)
	case n.GetGroupingFunc() != nil:
		return "grouping", 2
	case n.GetSubLink() != nil:
		return subLinkName(n.GetSubLink())
	case n.GetCaseExpr() != nil:
		if d := n.GetCaseExpr().Defresult; d != nil {
			if name, strength := figureColname(d); strength > 1 {
				return name, strength
			}
		}
		return "case", 1
	case n.GetAArrayExpr() != nil:
		return "array", 2
	case n.GetRowExpr() != nil:
		return "row", 2
	case n.GetCoalesceExpr() != nil:
		return "coalesce", 2
	case n.GetMinMaxExpr() != nil:
		if n.GetMinMaxExpr().Op == pg.MinMaxOp_IS_GREATEST {
			return "greatest", 2
		}
		return "least", 2
	case n.GetSqlvalueFunction() != nil:
		return sqlValueName(n.GetSqlvalueFunction().Op), 2
	}
	return "", 0
}

// rawLastName is the last part of a qualified name as the parser left it
// (folded unless quoted).
func rawLastName(names []*pg.Node) string {
	if len(names) == 0 || names[len(names)-1].GetString_() == nil {
		return ""
	}
	return names[len(names)-1].GetString_().Sval
}

// subLinkName names EXISTS, ARRAY and scalar subqueries; a scalar subquery
// is named after its own column.
func subLinkName(s *pg.SubLink) (string, int) {
	switch s.SubLinkType {
	case pg.SubLinkType_EXISTS_SUBLINK:
		return "exists", 2
	case pg.SubLinkType_ARRAY_SUBLINK:
		return "array", 2
	case pg.SubLinkType_EXPR_SUBLINK:
		sel := s.Subselect.GetSelectStmt()
		for sel != nil && sel.Op != pg.SetOperation_SETOP_NONE {
			sel = sel.Larg
		}
		if sel == nil || len(sel.TargetList) == 0 || sel.TargetList[0].GetResTarget() == nil {
			return "", 0
		}
		rt := sel.TargetList[0].GetResTarget()
		if rt.Name != "" {
			return rt.Name, 2
		}
		return colName(rt.Val), 2
	}
	return "", 0
}

func sqlValueName(op pg.SQLValueFunctionOp) string {
	switch op {
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		return "current_date"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:
		return "current_time"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		return "current_timestamp"
	case pg.SQLValueFunctionOp_SVFOP_LOCALTIME, pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		return "localtime"
	case pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		return "localtimestamp"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:
		return "current_role"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_USER:
		return "current_user"
	case pg.SQLValueFunctionOp_SVFOP_USER:
		return "user"
	case pg.SQLValueFunctionOp_SVFOP_SESSION_USER:
		return "session_user"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		return "current_catalog"
	case pg.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		return "current_schema"
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
