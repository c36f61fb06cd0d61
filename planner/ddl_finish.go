package planner

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/mallard/mallard/planner/plan"
)

// finishDDL makes st a statement the server carries out in the steps of
// d, followed by node itself (rewritten) when d keeps it.
func (p *Planner) finishDDL(st *plan.Statement, node *pg.Node, d *ddlPlan) {
	steps := d.steps
	if d.keep {
		steps = append(steps, p.rewriteStep(node)...)
	}
	st.DDL = &plan.DDL{Notices: d.notices, Warnings: d.warnings, Steps: steps}
	if len(steps) == 1 && steps[0].Setval != nil && node.GetSelectStmt() != nil {
		st.DDL.Columns = []string{"setval"}
	}
}
