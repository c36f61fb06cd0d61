package planner

import (
	"math"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// CursorOp is DECLARE, FETCH, MOVE or CLOSE of an SQL cursor.
type CursorOp struct {
	Op   string // "declare", "fetch", "move" or "close"
	Name string // lower-cased; "" with close means CLOSE ALL
	// Query is the planned query of DECLARE.
	Query *Statement
	// Count is the number of rows FETCH or MOVE asks for; 0 means ALL.
	Count int64
	// Hold is DECLARE ... WITH HOLD: the cursor outlives its transaction.
	Hold bool
}

// cursorOptHold is Postgres' CURSOR_OPT_HOLD bit of DeclareCursorStmt.options.
const cursorOptHold = 0x20

// cursorOp reads a cursor statement; unsupported is set for the forms
// Mallard's forward-only cursors cannot serve.
func (p *Planner) cursorOp(n *pg.Node, version int32) (op *CursorOp, unsupported string) {
	switch {
	case n.GetDeclareCursorStmt() != nil:
		d := n.GetDeclareCursorStmt()
		text, err := pg.Deparse(&pg.ParseResult{Version: version, Stmts: []*pg.RawStmt{{Stmt: d.Query}}})
		if err != nil {
			return nil, "this DECLARE CURSOR query"
		}
		q := p.PlanOne(text)
		return &CursorOp{Op: "declare", Name: strings.ToLower(d.Portalname), Query: &q,
			Hold: d.Options&cursorOptHold != 0}, ""
	case n.GetFetchStmt() != nil:
		f := n.GetFetchStmt()
		if f.Direction != pg.FetchDirection_FETCH_FORWARD || f.HowMany < 0 {
			return nil, "FETCH and MOVE other than FORWARD (cursors are forward-only)"
		}
		op := &CursorOp{Op: "fetch", Name: strings.ToLower(f.Portalname), Count: f.HowMany}
		if f.Ismove {
			op.Op = "move"
		}
		if op.Count == math.MaxInt64 {
			op.Count = 0
		}
		return op, ""
	case n.GetClosePortalStmt() != nil:
		return &CursorOp{Op: "close", Name: strings.ToLower(n.GetClosePortalStmt().Portalname)}, ""
	}
	return nil, ""
}
