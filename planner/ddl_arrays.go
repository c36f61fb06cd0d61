package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/mallard/mallard/planner/plan"
)

// arrayInsert returns the step for an INSERT ... VALUES of node that has
// array constants; nil for any other statement.
func (p *Planner) arrayInsert(node *pg.Node) *plan.InsertStep {
	ins := node.GetInsertStmt()
	rows := ins.GetSelectStmt().GetSelectStmt().GetValuesLists()
	if ins.Relation == nil || len(ins.ReturningList) > 0 || len(rows) == 0 || !hasArrayConst(rows) {
		return nil
	}
	var named []string
	for _, c := range ins.Cols {
		named = append(named, strings.ToLower(c.GetResTarget().GetName()))
	}
	return plan.NewInsertStep(ins.Relation.Schemaname, ins.Relation.Relname, named, func(columns []string, lists map[string]bool) string {
		clone := proto.Clone(node).(*pg.Node)
		targets := named
		if targets == nil {
			targets = columns
		}
		for _, row := range clone.GetInsertStmt().GetSelectStmt().GetSelectStmt().GetValuesLists() {
			for i, v := range row.GetList().GetItems() {
				if i < len(targets) && lists[strings.ToLower(targets[i])] {
					if arr, ok := arrayConstOf(v); ok {
						v.Node = arr.Node
					}
				}
			}
		}
		steps := p.rewriteStep(clone)
		if len(steps) == 0 {
			return ""
		}
		return steps[len(steps)-1].SQL
	})
}

// hasArrayConst reports whether a VALUES list holds a string constant in
// Postgres' array form.
func hasArrayConst(rows []*pg.Node) bool {
	for _, row := range rows {
		for _, v := range row.GetList().GetItems() {
			if _, ok := arrayConstOf(v); ok {
				return true
			}
		}
	}
	return false
}

// arrayConstOf reads a string constant, not cast, in Postgres' array form.
func arrayConstOf(n *pg.Node) (*pg.Node, bool) {
	s := n.GetAConst().GetSval()
	if s == nil || !strings.HasPrefix(strings.TrimSpace(s.Sval), "{") {
		return nil, false
	}
	return parseArray(s.Sval)
}
