package storage

import (
	"regexp"

	bindings "github.com/duckdb/duckdb-go-bindings"
	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
)

// statementNames names the kinds of DuckDB statement a read-only
// connection refuses, for its error message.
var statementNames = map[mapping.StatementType]string{
	mapping.StatementTypeInsert: "INSERT", mapping.StatementTypeUpdate: "UPDATE",
	mapping.StatementTypeDelete: "DELETE", bindings.StatementTypeMergeInto: "MERGE",
	mapping.StatementTypePrepare: "PREPARE", mapping.StatementTypeCreate: "CREATE",
	mapping.StatementTypeExecute: "EXECUTE", mapping.StatementTypeAlter: "ALTER",
	mapping.StatementTypeCopy: "COPY", mapping.StatementTypeAnalyze: "ANALYZE",
	mapping.StatementTypeVariableSet: "SET VARIABLE", mapping.StatementTypeCreateFunc: "CREATE FUNCTION",
	mapping.StatementTypeDrop: "DROP", mapping.StatementTypeExport: "EXPORT DATABASE",
	mapping.StatementTypePragma: "PRAGMA", mapping.StatementTypeVacuum: "VACUUM",
	mapping.StatementTypeSet: "SET", mapping.StatementTypeLoad: "LOAD",
	mapping.StatementTypeExtension: "INSTALL", mapping.StatementTypeAttach: "ATTACH",
	mapping.StatementTypeDetach: "DETACH", mapping.StatementTypeExplain: "EXPLAIN ANALYZE",
}

// explainAnalyze matches EXPLAIN ANALYZE, which runs the statement it explains.
var explainAnalyze = regexp.MustCompile(`(?is)^\s*explain\s*(\(.*analy[sz]e|analy[sz]e)`)

// readingPragma matches the PRAGMAs that only show something; others
// change settings (enable_profiling, enable_checkpoint_on_shutdown).
var readingPragma = regexp.MustCompile(`(?is)^\s*pragma\s+(table_info|show|show_tables|show_tables_expanded|show_databases|` +
	`database_list|database_size|storage_info|metadata_info|version|platform|functions|collations|user_agent)\b`)

// writingFunction matches calls, in a statement DuckDB types SELECT, of
// DuckDB's functions that write (sequences, checkpoints) or run SQL given
// as text, which could hide one.
var writingFunction = regexp.MustCompile(`(?i)\b(nextval|setval|checkpoint|force_checkpoint|query)\s*\(`)

// checkReadOnly fails with 42501 unless s only reads: a query (SELECT,
// CALL of a table function, a PRAGMA that shows something, EXPLAIN
// without ANALYZE) calling none of the functions writingFunction names.
func (s *Stmt) checkReadOnly() error {
	t := mapping.PreparedStatementType(s.ps)
	allowed := false
	switch t {
	case mapping.StatementTypeSelect, mapping.StatementTypeCall, mapping.StatementTypeRelation:
		allowed = true
	case mapping.StatementTypePragma:
		allowed = readingPragma.MatchString(s.query)
	case mapping.StatementTypeExplain:
		allowed = !explainAnalyze.MatchString(s.query)
	}
	if !allowed {
		what, ok := statementNames[t]
		if !ok {
			what = "this statement"
		}
		return ReadOnlyError(what)
	}
	if m := writingFunction.FindStringSubmatch(s.query); m != nil {
		return ReadOnlyError(m[1] + "()")
	}
	return nil
}

// ReadOnlyError is the error of a read-only session that tried what.
func ReadOnlyError(what string) error {
	return sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied to run %s: this session is read-only", what).
		WithHint("A read-only role may query and call forecast, recommend, evaluate and attention; connect as the owner to write, train or change settings.")
}
