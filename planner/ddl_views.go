package planner

import (
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// ViewStep is CREATE VIEW whose query names relations without a schema.
// Postgres binds those names when it creates the view, so a view keeps
// meaning the relations it meant, and pg_get_viewdef shows them qualified;
// DuckDB keeps the query's text and binds it anew at each use. The server
// finds each name's schema in the search path, as Postgres would, and SQL
// writes the view with the names qualified: DuckDB then means the same
// relations whatever the reader's search path, and a pg_dump of Mallard
// (which empties the search path) restores the view into PostgreSQL.
type ViewStep struct {
	// Names are the unqualified relation names of the query, each once;
	// names of its WITH queries are not among them.
	Names  []string
	render func(schemas map[string]string) string
}

// SQL renders the statement with each name in schemas qualified by its
// schema; a name not in schemas (not found) stays as written.
func (v *ViewStep) SQL(schemas map[string]string) string { return v.render(schemas) }

// createView returns the step for a CREATE VIEW whose query has
// unqualified relation names; nil when it has none.
func (p *Planner) createView(node *pg.Node) *ViewStep {
	vs := node.GetViewStmt()
	if vs == nil || vs.Query == nil {
		return nil
	}
	names := unqualifiedRelations(vs.Query)
	if len(names) == 0 {
		return nil
	}
	return &ViewStep{Names: names, render: func(schemas map[string]string) string {
		clone := proto.Clone(node).(*pg.Node)
		ctes := cteNames(clone)
		walkNodes(clone.GetViewStmt().Query, func(n *pg.Node) {
			if rv := n.GetRangeVar(); rv != nil && rv.Schemaname == "" && rv.Catalogname == "" && !ctes[rv.Relname] {
				rv.Schemaname = schemas[rv.Relname]
			}
		})
		steps := p.rewriteStep(clone)
		if len(steps) == 0 {
			return ""
		}
		return steps[len(steps)-1].SQL
	}}
}

// unqualifiedRelations lists the relation names of query that have no
// schema and are not the name of one of its WITH queries.
func unqualifiedRelations(query *pg.Node) []string {
	ctes := cteNames(query)
	var names []string
	walkNodes(query, func(n *pg.Node) {
		if rv := n.GetRangeVar(); rv != nil && rv.Schemaname == "" && rv.Catalogname == "" && !ctes[rv.Relname] && !slices.Contains(names, rv.Relname) {
			names = append(names, rv.Relname)
		}
	})
	return names
}

// cteNames are the names of the WITH queries anywhere below n.
func cteNames(n *pg.Node) map[string]bool {
	names := map[string]bool{}
	walkNodes(n, func(m *pg.Node) {
		if cte := m.GetCommonTableExpr(); cte != nil {
			names[cte.Ctename] = true
		}
	})
	return names
}
