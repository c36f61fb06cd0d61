package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// tableOIDs answers the tableoid system column of the catalog relations
// a SELECT reads (psql's \dd joins pg_constraint.tableoid and the like to
// pg_description.classoid): every row of a catalog relation has that
// relation's OID there, which the views do not carry as a column, since
// system columns are not part of SELECT *. A reference qualified by the
// relation's alias or name, or unqualified when the relation is the only
// FROM item, becomes the relation's OID, looked up in
// mallard_catalog_relations. References in nested SELECTs are theirs to
// answer.
func (r *rewriter) tableOIDs(sel *pg.SelectStmt) {
	if r.p.cat.Database == "" || len(sel.FromClause) == 0 {
		return
	}
	rels := map[string]string{} // relation name by the qualifier that names it
	for _, item := range sel.FromClause {
		r.catalogRelations(item, rels)
	}
	if len(rels) == 0 {
		return
	}
	only := ""
	if rv := sel.FromClause[0].GetRangeVar(); len(sel.FromClause) == 1 && rv != nil {
		only = rels[qualifierOf(rv)]
	}
	for _, t := range sel.TargetList {
		if rt := t.GetResTarget(); rt != nil && rt.Name == "" && tableOIDRelation(rt.Val.GetColumnRef(), rels, only) != "" {
			rt.Name = "tableoid" // the column's name in Postgres, not the subquery's
		}
	}
	for _, part := range selectParts(sel) {
		if part != nil {
			r.replaceTableOID(part.ProtoReflect(), rels, only)
		}
	}
}

// catalogRelations records the pg_catalog relations of a FROM item.
func (r *rewriter) catalogRelations(item *pg.Node, rels map[string]string) {
	if j := item.GetJoinExpr(); j != nil {
		r.catalogRelations(j.Larg, rels)
		r.catalogRelations(j.Rarg, rels)
		return
	}
	rv := item.GetRangeVar()
	if rv == nil || rv.Catalogname != "" {
		return
	}
	name := strings.ToLower(rv.Relname)
	if schema := strings.ToLower(rv.Schemaname); (schema == "pg_catalog" || schema == "") && r.p.views[name] {
		rels[qualifierOf(rv)] = name
	}
}

// qualifierOf is the name a FROM item's columns are qualified with.
func qualifierOf(rv *pg.RangeVar) string {
	if rv.Alias != nil {
		return rv.Alias.Aliasname
	}
	return strings.ToLower(rv.Relname)
}

// selectParts are the parts of a SELECT that may refer to its FROM items.
func selectParts(sel *pg.SelectStmt) []*pg.Node {
	parts := append([]*pg.Node{sel.WhereClause, sel.HavingClause}, sel.TargetList...)
	parts = append(parts, sel.GroupClause...)
	parts = append(parts, sel.SortClause...)
	var joins func(n *pg.Node)
	joins = func(n *pg.Node) {
		if j := n.GetJoinExpr(); j != nil {
			parts = append(parts, j.Quals)
			joins(j.Larg)
			joins(j.Rarg)
		}
	}
	for _, item := range sel.FromClause {
		joins(item)
	}
	return parts
}

// replaceTableOID replaces the tableoid references below m.
func (r *rewriter) replaceTableOID(m protoreflect.Message, rels map[string]string, only string) {
	switch x := m.Interface().(type) {
	case *pg.SelectStmt:
		return
	case *pg.Node:
		if rel := tableOIDRelation(x.GetColumnRef(), rels, only); rel != "" {
			if oid := r.relationOID(rel); oid != nil {
				x.Node = oid.Node
				r.changed = true
			}
			return
		}
	}
	children(m, func(c protoreflect.Message) { r.replaceTableOID(c, rels, only) })
}

// tableOIDRelation is the relation whose tableoid c refers to, or "".
func tableOIDRelation(c *pg.ColumnRef, rels map[string]string, only string) string {
	if c == nil {
		return ""
	}
	f := c.Fields
	switch {
	case len(f) == 1 && f[0].GetString_().GetSval() == "tableoid":
		return only
	case len(f) == 2 && f[1].GetString_().GetSval() == "tableoid":
		return rels[f[0].GetString_().GetSval()]
	}
	return ""
}

// relationOID is the OID of a pg_catalog relation, as an expression.
func (r *rewriter) relationOID(rel string) *pg.Node {
	return parseExpr("(SELECT oid FROM " + r.p.cat.Database + "." + r.p.cat.PGSchema +
		".mallard_catalog_relations WHERE nspname = 'pg_catalog' AND relname = " + quoteLiteral(rel) + ")")
}
