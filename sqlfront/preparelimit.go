package sqlfront

import (
	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// DefaultMaxPrepared is the default of mallard.max_prepared_statements.
// Each prepared statement holds DuckDB's plan and Mallard's description
// of it (about 18 KB measured for a one-line SELECT), so the default
// bounds one session's at about 180 MB.
const DefaultMaxPrepared = 10000

// preparedCount is how many prepared statements the session holds and
// mallard.max_prepared_statements bounds: the named protocol-level ones
// and those of SQL PREPARE. The unnamed statement is not counted: there
// is at most one, and each Parse replaces it.
func (s *session) preparedCount() int {
	n := len(s.stmts) + len(s.sqlPrepared)
	if _, ok := s.stmts[""]; ok {
		n--
	}
	return n
}

// mayPrepare fails with 53200, naming the setting, when preparing one
// more statement named name would pass mallard.max_prepared_statements.
// Nothing is prepared when it fails; closing or deallocating a statement
// makes room again.
func (s *session) mayPrepare(name string) error {
	if name == "" || s.params.maxPrepared <= 0 || s.preparedCount() < s.params.maxPrepared {
		return nil
	}
	return sqlstate.New(sqlstate.OutOfMemory, "out of memory: prepared statement %q would be this session's %d, past %s = %d",
		name, s.preparedCount()+1, plan.MaxPreparedParameter, s.params.maxPrepared).
		WithHint("Close (or DEALLOCATE) prepared statements the session no longer needs, or raise " + plan.MaxPreparedParameter + " with SET.")
}

// notePrepared keeps count of the statements SQL PREPARE and DEALLOCATE
// of a name Mallard does not hold leave in DuckDB, once st completed.
// (DEALLOCATE ALL drops the protocol-level statements only; see deallocate.)
func (s *session) notePrepared(st plan.Statement) {
	switch {
	case st.Prepare != "":
		s.sqlPrepared[st.Prepare] = true
	case st.Deallocate != "" && st.Deallocate != "*":
		delete(s.sqlPrepared, st.Deallocate)
	}
}
