package sqlfront

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// cursor runs DECLARE, FETCH, MOVE and CLOSE. An SQL cursor is a portal
// named like the cursor, as in Postgres; it reads forward only.
func (s *session) cursor(prep *prepared, simple bool) error {
	op := prep.plan.Cursor
	switch op.Op {
	case "declare":
		return s.declare(prep, op)
	case "close":
		return s.closeCursor(op.Name)
	}
	p, ok := s.portals[op.Name]
	if !ok {
		return sqlstate.New(sqlstate.InvalidCursorName, "cursor %q does not exist", op.Name)
	}
	return s.fetch(p, op, simple)
}

func (s *session) declare(prep *prepared, op *plan.CursorOp) error {
	if s.tx == txIdle && !op.Hold {
		return sqlstate.New(sqlstate.NoActiveSQLTransaction, "DECLARE CURSOR can only be used in transaction blocks")
	}
	if _, exists := s.portals[op.Name]; exists {
		return sqlstate.New(sqlstate.DuplicateCursor, "cursor %q already exists", op.Name)
	}
	if !prep.declared.returnsRows() {
		return sqlstate.New(sqlstate.InvalidCursorState, "cursor %q does not return rows", op.Name)
	}
	s.portals[op.Name] = &portal{prep: prep.declared, cursor: true, withHold: op.Hold}
	prep.declared = nil // the cursor owns it now
	s.w.send(&pgproto3.CommandComplete{CommandTag: []byte("DECLARE CURSOR")})
	return nil
}

// fetch sends (FETCH) or skips (MOVE) the next rows of cursor p.
func (s *session) fetch(p *portal, op *plan.CursorOp, simple bool) error {
	if p.ctx == nil && !p.done {
		p.ctx, p.cancel = s.portalContext()
		if err := s.start(p, false); err != nil {
			return err
		}
	}
	defer s.setRunning(p.ctx, p.cancel)()
	if simple && op.Op == "fetch" {
		s.w.send(rowDescription(p.cols, p.formats))
	}
	var n int64
	if !p.done && p.enc != nil {
		var more bool
		var err error
		n, more, err = s.sendRows(p, op.Count, op.Op == "fetch")
		if err != nil {
			return err
		}
		if !more {
			p.done = true
			if s.open == p {
				s.open = nil
			}
		}
	}
	s.w.send(&pgproto3.CommandComplete{CommandTag: commandTag(map[string]string{"fetch": "FETCH", "move": "MOVE"}[op.Op], n, true)})
	return nil
}

func (s *session) closeCursor(name string) error {
	if name == "" {
		for n, p := range s.portals {
			if p.cursor {
				s.dropPortal(n, p)
			}
		}
		s.w.send(&pgproto3.CommandComplete{CommandTag: []byte("CLOSE CURSOR ALL")})
		return nil
	}
	p, ok := s.portals[name]
	if !ok {
		return sqlstate.New(sqlstate.InvalidCursorName, "cursor %q does not exist", name)
	}
	s.dropPortal(name, p)
	s.w.send(&pgproto3.CommandComplete{CommandTag: []byte("CLOSE CURSOR")})
	return nil
}

func (s *session) dropPortal(name string, p *portal) {
	if s.open == p {
		s.open = nil
	}
	p.close()
	delete(s.portals, name)
}
