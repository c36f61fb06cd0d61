package planner

import (
	"math"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/mallard/mallard/planner/plan"
)

// cursorOptHold is Postgres' CURSOR_OPT_HOLD bit of DeclareCursorStmt.options.
const cursorOptHold = 0x20

// cursorOp reads a cursor statement; unsupported is set for the forms
// Mallard's forward-only cursors cannot serve.
func (p *Planner) cursorOp(n *pg.Node, version int32) (op *plan.CursorOp, unsupported string) {
	switch {
	case n.GetDeclareCursorStmt() != nil:
		d := n.GetDeclareCursorStmt()
		text, err := pg.Deparse(&pg.ParseResult{Version: version, Stmts: []*pg.RawStmt{{Stmt: d.Query}}})
		if err != nil {
			return nil, "this DECLARE CURSOR query"
		}
		q := p.PlanOne(text)
		return &plan.CursorOp{Op: "declare", Name: d.Portalname, Query: &q,
			Hold: d.Options&cursorOptHold != 0}, ""
	case n.GetFetchStmt() != nil:
		f := n.GetFetchStmt()
		if f.Direction != pg.FetchDirection_FETCH_FORWARD || f.HowMany < 0 {
			return nil, "FETCH and MOVE other than FORWARD (cursors are forward-only)"
		}
		op := &plan.CursorOp{Op: "fetch", Name: f.Portalname, Count: f.HowMany}
		if f.Ismove {
			op.Op = "move"
		}
		if op.Count == math.MaxInt64 {
			op.Count = 0
		}
		return op, ""
	case n.GetClosePortalStmt() != nil:
		return &plan.CursorOp{Op: "close", Name: n.GetClosePortalStmt().Portalname}, ""
	}
	return nil, ""
}
