package sqlfront

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// savepoint is a SAVEPOINT of the open transaction block. DuckDB has no
// savepoints, so the front end keeps them and can honour ROLLBACK TO only
// where there is nothing to undo: no statement since the savepoint changed
// data or settings. That covers what drivers do with them (psycopg 3 and
// SQLAlchemy's nested transactions wrap a query that may fail in a
// savepoint and roll back to it on the error). Where there is something to
// undo, ROLLBACK TO fails with 0A000 and leaves the block failed, so that
// the changes it cannot undo are never committed.
type savepoint struct {
	name    string
	changes int // the block's changes when the savepoint was set
}

// changesState reports whether st may change the database or the session's
// settings, which ROLLBACK TO SAVEPOINT would have to undo. Queries
// (including cursors over them) do not; a function that writes from a
// query, such as nextval, is not undone by Postgres either.
func changesState(st plan.Statement) bool {
	switch st.Kind {
	case plan.KindEmpty, plan.KindQuery, plan.KindShow, plan.KindSavepoint,
		plan.KindBegin, plan.KindCommit, plan.KindRollback:
		return false
	}
	return st.Cursor == nil
}

// beginBlock forgets the savepoints and changes of the previous block.
func (s *session) beginBlock() {
	s.savepoints, s.changes = nil, 0
}

// savepointStatement runs SAVEPOINT, RELEASE [SAVEPOINT] or ROLLBACK TO
// [SAVEPOINT] as Postgres does, within the limits savepoint states.
func (s *session) savepointStatement(st plan.Statement) error {
	if s.tx == txIdle {
		return sqlstate.New(sqlstate.NoActiveSQLTransaction, "%s can only be used in transaction blocks", savepointVerb(st))
	}
	if st.Savepoint == "" {
		return sqlstate.New(sqlstate.SyntaxError, "syntax error: %s needs a savepoint name", savepointVerb(st))
	}
	if st.Tag == "SAVEPOINT" {
		s.savepoints = append(s.savepoints, savepoint{name: st.Savepoint, changes: s.changes})
		return s.savepointDone(st.Tag)
	}
	i := s.findSavepoint(st.Savepoint)
	if i < 0 {
		return sqlstate.New(sqlstate.InvalidSavepoint, "savepoint %q does not exist", st.Savepoint)
	}
	if st.Tag == "RELEASE" {
		s.savepoints = s.savepoints[:i]
		return s.savepointDone(st.Tag)
	}
	if err := s.rollbackTo(s.savepoints[i]); err != nil {
		return err
	}
	s.savepoints = s.savepoints[:i+1] // ROLLBACK TO keeps the savepoint itself
	return s.savepointDone(st.Tag)
}

// rollbackTo returns the block to sp where nothing since needs undoing,
// and makes a failed block usable again: DuckDB keeps its transaction
// after an error raised before execution (an unknown table) and aborts it
// after one raised during execution (a division by zero); an aborted one is
// replaced by a new transaction when the block changed nothing at all.
func (s *session) rollbackTo(sp savepoint) error {
	if s.changes != sp.changes {
		s.tx = txFailed
		return sqlstate.New(sqlstate.FeatureNotSupported,
			"ROLLBACK TO SAVEPOINT %q must undo %d statements that changed data or settings since it, and DuckDB has no savepoints", sp.name, s.changes-sp.changes).
			WithHint("The transaction is now aborted: ROLLBACK it and run it again without the statements after the savepoint.")
	}
	if s.tx == txActive {
		return nil
	}
	if err := s.db.Exec(s.ctx, "SELECT 1"); err == nil {
		s.tx = txActive
		return nil
	}
	if s.changes > 0 {
		return sqlstate.New(sqlstate.FeatureNotSupported,
			"ROLLBACK TO SAVEPOINT %q cannot recover this transaction: DuckDB aborted it on the error, and it had changed data or settings before the savepoint", sp.name).
			WithHint("ROLLBACK the transaction and run it again.")
	}
	s.db.Exec(s.ctx, "ROLLBACK") // the aborted transaction held no change
	if err := s.db.Exec(s.ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	s.tx = txActive
	return nil
}

func (s *session) findSavepoint(name string) int {
	for i := len(s.savepoints) - 1; i >= 0; i-- {
		if s.savepoints[i].name == name {
			return i
		}
	}
	return -1
}

func (s *session) savepointDone(tag string) error {
	s.completed(tag, 0)
	s.w.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	return nil
}

// savepointVerb names st as Postgres' errors do.
func savepointVerb(st plan.Statement) string {
	switch st.Tag {
	case "ROLLBACK":
		return "ROLLBACK TO SAVEPOINT"
	case "RELEASE":
		return "RELEASE SAVEPOINT"
	}
	return st.Tag
}

// isRollbackTo reports whether st is ROLLBACK TO SAVEPOINT, which Postgres
// accepts in a failed transaction block as it does ROLLBACK.
func isRollbackTo(st plan.Statement) bool {
	return st.Kind == plan.KindSavepoint && st.Tag == "ROLLBACK"
}
