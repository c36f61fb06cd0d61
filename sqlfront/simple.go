package sqlfront

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
)

// handleQuery runs a simple Query: each statement in turn, stopping at the
// first error, then ReadyForQuery. Several statements outside an explicit
// transaction block run in one implicit transaction block, as in
// Postgres: an error undoes their SETs too, and SET LOCAL lasts until the
// Query ends, or until a COMMIT or ROLLBACK in it, after which the next
// statement starts another (a BEGIN in it carries what was set into the
// block it opens). DuckDB runs such statements in
// one transaction only when none of them is transaction control. The
// Query also ends the implicit transaction of an extended-protocol batch
// it arrives in before Sync.
func (s *session) handleQuery(q *pgproto3.Query) error {
	s.closeUnnamedPortal()
	stmts := s.srv.planner.Plan(q.String)
	if len(stmts) == 0 {
		s.w.send(&pgproto3.EmptyQueryResponse{})
		s.readyForQuery()
		return nil
	}
	block := s.tx == txIdle && len(stmts) > 1
	implicit := block && !hasTransactionControl(stmts)
	if implicit {
		if err := s.db.Exec(s.ctx, "BEGIN TRANSACTION"); err != nil {
			return s.simpleDone(err)
		}
	}
	for _, st := range stmts {
		if block && s.tx == txIdle {
			s.params.begin(true) // again after a COMMIT or ROLLBACK in the Query
		}
		if err := s.simpleStatement(st); err != nil {
			if implicit {
				s.db.Exec(s.ctx, "ROLLBACK")
			}
			s.endImplicit(false)
			return s.simpleDone(err)
		}
	}
	if implicit {
		if err := s.db.Exec(s.ctx, "COMMIT"); err != nil {
			s.endImplicit(false)
			return s.simpleDone(err)
		}
	}
	s.endImplicit(true)
	return s.simpleDone(nil)
}

// simpleDone reports err, if any, and ends the Query with ReadyForQuery.
func (s *session) simpleDone(err error) error {
	if err != nil {
		if fatal := s.fatalError(err); fatal != nil {
			return fatal
		}
		s.fail(err)
	}
	s.readyForQuery()
	return nil
}

func (s *session) simpleStatement(st plan.Statement) error {
	prep, err := s.prepare(st)
	if err != nil {
		return err
	}
	defer prep.close()
	p := &portal{prep: prep}
	defer p.close()
	err = s.execute(p, 0, true)
	if s.open == p {
		s.open = nil
	}
	return err
}

func hasTransactionControl(stmts []plan.Statement) bool {
	for _, st := range stmts {
		switch st.Kind {
		case plan.KindBegin, plan.KindCommit, plan.KindRollback, plan.KindSavepoint:
			return true
		}
	}
	return false
}

// closeUnnamedPortal drops the unnamed portal, which any Query or Bind replaces.
func (s *session) closeUnnamedPortal() {
	if p := s.portals[""]; p != nil {
		if s.open == p {
			s.open = nil
		}
		p.close()
		delete(s.portals, "")
	}
}
