package planner

import (
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/mallard/mallard/planner/plan"
)

// createView returns the step for a CREATE VIEW whose query has
// unqualified relation names; nil when it has none.
func (p *Planner) createView(node *pg.Node) *plan.ViewStep {
	vs := node.GetViewStmt()
	if vs == nil || vs.Query == nil {
		return nil
	}
	names := unqualifiedRelations(vs.Query)
	if len(names) == 0 {
		return nil
	}
	return plan.NewViewStep(names, func(schemas map[string]string) string {
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
	})
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
