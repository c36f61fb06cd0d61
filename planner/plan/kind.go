package plan

import "strconv"

// Kind classifies a statement by how the server runs it.
type Kind int

// The kinds of statement. Every kind but KindQuery and KindOther returns no
// rows, except that a DML statement with Returning set does.
const (
	// KindEmpty is text with no statement in it, only whitespace and
	// comments.
	KindEmpty Kind = iota
	// KindQuery returns rows: SELECT, VALUES, TABLE, WITH … SELECT, SHOW,
	// DESCRIBE, SUMMARIZE, DuckDB's FROM-first queries, PIVOT, UNPIVOT,
	// EXPLAIN, PRAGMA, CALL and any statement that starts with "(".
	KindQuery
	// KindInsert is INSERT, including WITH … INSERT.
	KindInsert
	// KindUpdate is UPDATE, including WITH … UPDATE.
	KindUpdate
	// KindDelete is DELETE, including WITH … DELETE.
	KindDelete
	// KindMerge is MERGE, including WITH … MERGE.
	KindMerge
	// KindBegin is BEGIN and START TRANSACTION.
	KindBegin
	// KindCommit is COMMIT and END.
	KindCommit
	// KindRollback is ROLLBACK and ABORT, but not ROLLBACK TO SAVEPOINT.
	KindRollback
	// KindSavepoint is SAVEPOINT, RELEASE [SAVEPOINT] and ROLLBACK TO
	// [SAVEPOINT], which DuckDB does not have.
	KindSavepoint
	// KindCopy is COPY; ParseCopy tells whether the server runs it.
	KindCopy
	// KindSet is SET.
	KindSet
	// KindReset is RESET.
	KindReset
	// KindDDL is a utility statement that returns no rows and completes
	// with Tag: CREATE, DROP, ALTER, TRUNCATE, COMMENT, ATTACH, DETACH,
	// CHECKPOINT, VACUUM, ANALYZE, LOAD, INSTALL, EXPORT, IMPORT, USE,
	// PREPARE, DEALLOCATE, DISCARD, GRANT and REVOKE.
	KindDDL
	// KindShow is SHOW of a parameter, which the server answers itself
	// for Postgres parameters.
	KindShow
	// KindSetConfig is a statement that only calls set_config(name,
	// value, is_local), once or more: a SET in function form.
	KindSetConfig
	// KindOther is a statement the planner does not recognise, and
	// EXECUTE, whose result is that of the prepared statement. It may or
	// may not return rows; the engine knows.
	KindOther
)

// String returns the kind's name without the "Kind" prefix.
func (k Kind) String() string {
	switch k {
	case KindEmpty:
		return "Empty"
	case KindQuery:
		return "Query"
	case KindInsert:
		return "Insert"
	case KindUpdate:
		return "Update"
	case KindDelete:
		return "Delete"
	case KindMerge:
		return "Merge"
	case KindBegin:
		return "Begin"
	case KindCommit:
		return "Commit"
	case KindRollback:
		return "Rollback"
	case KindSavepoint:
		return "Savepoint"
	case KindCopy:
		return "Copy"
	case KindSet:
		return "Set"
	case KindReset:
		return "Reset"
	case KindDDL:
		return "DDL"
	case KindShow:
		return "Show"
	case KindSetConfig:
		return "SetConfig"
	case KindOther:
		return "Other"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// IsTransactionExit reports whether s ends a transaction block: COMMIT,
// END, ROLLBACK or ABORT, the only statements Postgres still accepts in a
// failed transaction. It is derived from Kind, so ROLLBACK TO SAVEPOINT
// (KindSavepoint) and COMMIT PREPARED (KindOther) are not exits.
func (s Statement) IsTransactionExit() bool {
	return s.Kind == KindCommit || s.Kind == KindRollback
}
