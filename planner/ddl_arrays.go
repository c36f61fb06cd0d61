package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// InsertStep is an INSERT ... VALUES with string constants in Postgres'
// array form ('{1,2}', '{"a b",c}'), as pg_dump --inserts writes array
// values. DuckDB reads only its own list form ('[1, 2]') as a list, and
// whether such a constant is an array or just text (or JSON: '{}') depends
// on the column it goes to, which the server looks up before SQL renders
// the statement.
type InsertStep struct {
	Schema, Table string // Schema "" for the search path
	// Columns are the statement's target columns, lower-cased as Postgres
	// folds them; nil for all of the table's columns in order.
	Columns []string
	render  func(columns []string, lists map[string]bool) string
}

// SQL renders the statement for DuckDB: each array constant that goes to
// a column in lists (a list column; keys lower-cased) becomes an ARRAY of
// its elements, which DuckDB casts element by element, and every other
// constant stays as it is. columns are the table's columns in order.
func (s *InsertStep) SQL(columns []string, lists map[string]bool) string {
	return s.render(columns, lists)
}

// arrayInsert returns the step for an INSERT ... VALUES of node that has
// array constants; nil for any other statement.
func (p *Planner) arrayInsert(node *pg.Node) *InsertStep {
	ins := node.GetInsertStmt()
	rows := ins.GetSelectStmt().GetSelectStmt().GetValuesLists()
	if ins.Relation == nil || len(ins.ReturningList) > 0 || len(rows) == 0 || !hasArrayConst(rows) {
		return nil
	}
	step := &InsertStep{Schema: ins.Relation.Schemaname, Table: ins.Relation.Relname}
	for _, c := range ins.Cols {
		step.Columns = append(step.Columns, strings.ToLower(c.GetResTarget().GetName()))
	}
	step.render = func(columns []string, lists map[string]bool) string {
		clone := proto.Clone(node).(*pg.Node)
		targets := step.Columns
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
	}
	return step
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
