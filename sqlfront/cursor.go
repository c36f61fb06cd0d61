package sqlfront

import (
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// cursor runs DECLARE, FETCH, MOVE and CLOSE. An SQL cursor is a portal
// named like the cursor, as in Postgres; it reads forward only.
//
// by is the portal of the cursor statement: DECLARE's query takes its
// parameters, and FETCH sends rows in its result formats (text in a
// simple Query).
func (s *session) cursor(by *portal, simple bool) error {
	op := by.prep.plan.Cursor
	switch op.Op {
	case "declare":
		return s.declare(by.prep, op, by.args)
	case "close":
		return s.closeCursor(op.Name)
	}
	p, ok := s.portals[op.Name]
	if !ok {
		return sqlstate.New(sqlstate.InvalidCursorName, "cursor %q does not exist", op.Name)
	}
	var formats []int16
	if !simple {
		formats = by.formats
	}
	return s.fetch(p, op, simple, formats)
}

func (s *session) declare(prep *prepared, op *plan.CursorOp, args []any) error {
	if s.tx == txIdle && !op.Hold {
		return sqlstate.New(sqlstate.NoActiveSQLTransaction, "DECLARE CURSOR can only be used in transaction blocks")
	}
	if _, exists := s.portals[op.Name]; exists {
		return sqlstate.New(sqlstate.DuplicateCursor, "cursor %q already exists", op.Name)
	}
	if prep.declared == nil {
		return sqlstate.New(sqlstate.InvalidCursorState, "cursor %q was declared by this statement already", op.Name)
	}
	if !prep.declared.returnsRows() || prep.declared.stmt == nil {
		return sqlstate.New(sqlstate.InvalidCursorState, "cursor %q does not return rows", op.Name)
	}
	s.portals[op.Name] = &portal{prep: prep.declared, args: args, cursor: true, withHold: op.Hold}
	s.act.cursorOpened(Cursor{Name: op.Name, Statement: prep.plan.Text, Holdable: op.Hold, CreationTime: time.Now()})
	prep.declared = nil // the cursor owns it now
	s.w.send(&pgproto3.CommandComplete{CommandTag: []byte("DECLARE CURSOR")})
	return nil
}

// fetch sends (FETCH) or skips (MOVE) the next rows of cursor p, in
// formats as Bind gave them (none: text).
func (s *session) fetch(p *portal, op *plan.CursorOp, simple bool, formats []int16) error {
	if err := s.startPortal(p, false); err != nil {
		return err
	}
	defer s.setRunning(p.ctx, p.cancel)()
	if p.enc != nil {
		if err := checkFormats(formats, len(p.cols)); err != nil {
			return err
		}
		if want := resolveFormats(formats, len(p.cols)); !slices.Equal(want, p.formats) {
			p.formats = want
			enc, err := p.prep.encoder(p.cols, p.formats)
			if err != nil {
				return err
			}
			p.enc = enc
		}
	}
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
	if p.cursor {
		s.act.cursorClosed(name)
	}
}
