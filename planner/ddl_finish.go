package planner

import pg "github.com/pganalyze/pg_query_go/v6"

// finishDDL makes st a statement the server carries out in the steps of
// plan, followed by node itself (rewritten) when plan keeps it.
func (p *Planner) finishDDL(st *Statement, node *pg.Node, plan *ddlPlan) {
	steps := plan.steps
	if plan.keep {
		steps = append(steps, p.rewriteStep(node)...)
	}
	st.DDL = &DDL{Notices: plan.notices, Warnings: plan.warnings, Steps: steps}
	if len(steps) == 1 && steps[0].Setval != nil && node.GetSelectStmt() != nil {
		st.DDL.Columns = []string{"setval"}
	}
}
