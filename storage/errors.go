package storage

import (
	"errors"
	"strings"
	"unicode/utf8"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
)

// This file is the one place where DuckDB errors become SQLSTATEs.
//
// DuckDB's C API types an error by its exception type: directly for a failed
// execution (duckdb_result_error_type) and, for a failed prepare, only as the
// "<Type> Error: " prefix it renders in front of the message (the same
// rendering duckdb-go parses). The exception type decides the SQLSTATE class.
// Within the Catalog, Binder and Constraint types DuckDB has no finer C-level
// typing, so the subject of the message (the catalog entry kind, the kind of
// constraint) picks the code within that class; those templates live in
// refinements below and nowhere else.

// exceptionCodes maps DuckDB exception types to the SQLSTATE used when no
// refinement applies.
var exceptionCodes = map[mapping.ErrorType]sqlstate.Code{
	mapping.ErrorTypeOutOfRange:           sqlstate.NumericValueOutOfRange,
	mapping.ErrorTypeConversion:           sqlstate.InvalidTextRepresentation,
	mapping.ErrorTypeUnknownType:          sqlstate.UndefinedObject,
	mapping.ErrorTypeDecimal:              sqlstate.NumericValueOutOfRange,
	mapping.ErrorTypeMismatchType:         sqlstate.DatatypeMismatch,
	mapping.ErrorTypeDivideByZero:         sqlstate.DivisionByZero,
	mapping.ErrorTypeObjectSize:           sqlstate.ProgramLimitExceeded,
	mapping.ErrorTypeInvalidType:          sqlstate.DatatypeMismatch,
	mapping.ErrorTypeSerialization:        sqlstate.SerializationFailure,
	mapping.ErrorTypeTransaction:          sqlstate.InvalidTransactionState,
	mapping.ErrorTypeNotImplemented:       sqlstate.FeatureNotSupported,
	mapping.ErrorTypeCatalog:              sqlstate.UndefinedObject,
	mapping.ErrorTypeParser:               sqlstate.SyntaxError,
	mapping.ErrorTypeSyntax:               sqlstate.SyntaxError,
	mapping.ErrorTypeConstraint:           sqlstate.IntegrityConstraintViolation,
	mapping.ErrorTypeBinder:               sqlstate.SyntaxErrorOrAccessRule,
	mapping.ErrorTypeSettings:             sqlstate.InvalidParameterValue,
	mapping.ErrorTypeInvalidConfiguration: sqlstate.InvalidParameterValue,
	mapping.ErrorTypeErrorIO:              sqlstate.IOError,
	mapping.ErrorTypeInterrupt:            sqlstate.QueryCanceled,
	mapping.ErrorTypeInvalidInput:         sqlstate.InvalidParameterValue,
	mapping.ErrorTypeOutOfMemory:          sqlstate.OutOfMemory,
	mapping.ErrorTypePermission:           sqlstate.InsufficientPrivilege,
	mapping.ErrorTypeParameterNotResolved: sqlstate.IndeterminateDatatype,
	mapping.ErrorTypeParameterNotAllowed:  sqlstate.UndefinedParameter,
	mapping.ErrorTypeDependency:           sqlstate.DependentObjectsStillExist,
	mapping.ErrorTypeSequence:             sqlstate.ObjectNotInPrerequisiteState,
	mapping.ErrorTypeMissingExtension:     sqlstate.FeatureNotSupported,
	mapping.ErrorTypeAutoload:             sqlstate.FeatureNotSupported,
	mapping.ErrorTypeNetwork:              sqlstate.ConnectionException,
	mapping.ErrorTypeHTTP:                 sqlstate.ConnectionException,
}

// exceptionPrefixes are DuckDB's renderings of its exception types.
var exceptionPrefixes = map[string]mapping.ErrorType{
	"Invalid": mapping.ErrorTypeInvalid, "Out of Range": mapping.ErrorTypeOutOfRange,
	"Conversion": mapping.ErrorTypeConversion, "Decimal": mapping.ErrorTypeDecimal,
	"Mismatch Type": mapping.ErrorTypeMismatchType, "Divide by Zero": mapping.ErrorTypeDivideByZero,
	"Object Size": mapping.ErrorTypeObjectSize, "Invalid type": mapping.ErrorTypeInvalidType,
	"Serialization": mapping.ErrorTypeSerialization, "TransactionContext": mapping.ErrorTypeTransaction,
	"Not implemented": mapping.ErrorTypeNotImplemented, "Expression": mapping.ErrorTypeExpression,
	"Catalog": mapping.ErrorTypeCatalog, "Parser": mapping.ErrorTypeParser,
	"Planner": mapping.ErrorTypePlanner, "Scheduler": mapping.ErrorTypeScheduler,
	"Executor": mapping.ErrorTypeExecutor, "Constraint": mapping.ErrorTypeConstraint,
	"Index": mapping.ErrorTypeIndex, "Stat": mapping.ErrorTypeStat,
	"Connection": mapping.ErrorTypeConnection, "Syntax": mapping.ErrorTypeSyntax,
	"Settings": mapping.ErrorTypeSettings, "Binder": mapping.ErrorTypeBinder,
	"Network": mapping.ErrorTypeNetwork, "Optimizer": mapping.ErrorTypeOptimizer,
	"NullPointer": mapping.ErrorTypeNullPointer, "IO": mapping.ErrorTypeErrorIO,
	"INTERRUPT": mapping.ErrorTypeInterrupt, "FATAL": mapping.ErrorTypeFatal,
	"INTERNAL": mapping.ErrorTypeInternal, "Invalid Input": mapping.ErrorTypeInvalidInput,
	"Out of Memory": mapping.ErrorTypeOutOfMemory, "Permission": mapping.ErrorTypePermission,
	"Parameter Not Resolved": mapping.ErrorTypeParameterNotResolved,
	"Parameter Not Allowed":  mapping.ErrorTypeParameterNotAllowed,
	"Dependency":             mapping.ErrorTypeDependency, "HTTP": mapping.ErrorTypeHTTP,
	"Missing Extension":     mapping.ErrorTypeMissingExtension,
	"Extension Autoloading": mapping.ErrorTypeAutoload, "Sequence": mapping.ErrorTypeSequence,
	"Invalid Configuration": mapping.ErrorTypeInvalidConfiguration,
}

// refinement picks a code within an exception type by the subject of the
// message. DuckDB's C API (and so duckdb-go's *duckdb.Error) types an error
// only by its exception type; the catalog entry kind, the constraint and
// the like reach Go only as text, so these substrings are the fallback
// where the type alone does not give PostgreSQL's code. Each has a test
// with the message DuckDB renders (TestRefinementsEachTested).
type refinement struct {
	kind     mapping.ErrorType
	contains string
	code     sqlstate.Code
}

var refinements = []refinement{
	{mapping.ErrorTypeCatalog, "already exists", sqlstate.DuplicateTable},
	{mapping.ErrorTypeCatalog, "Function with name", sqlstate.UndefinedFunction},
	{mapping.ErrorTypeCatalog, "Table with name", sqlstate.UndefinedTable},
	{mapping.ErrorTypeCatalog, "View with name", sqlstate.UndefinedTable},
	{mapping.ErrorTypeCatalog, "Schema with name", sqlstate.InvalidSchemaName},
	{mapping.ErrorTypeBinder, "Referenced column", sqlstate.UndefinedColumn},
	{mapping.ErrorTypeBinder, "does not have a column", sqlstate.UndefinedColumn},
	{mapping.ErrorTypeBinder, "No function matches", sqlstate.UndefinedFunction},
	{mapping.ErrorTypeBinder, "Ambiguous reference", sqlstate.AmbiguousColumn},
	{mapping.ErrorTypeBinder, "values were supplied", sqlstate.SyntaxError},
	{mapping.ErrorTypeBinder, "must appear in the GROUP BY clause", sqlstate.GroupingError},
	{mapping.ErrorTypeConstraint, "NOT NULL constraint", sqlstate.NotNullViolation},
	{mapping.ErrorTypeConstraint, "CHECK constraint", sqlstate.CheckViolation},
	{mapping.ErrorTypeConstraint, "foreign key", sqlstate.ForeignKeyViolation},
	{mapping.ErrorTypeConstraint, "Duplicate key", sqlstate.UniqueViolation},
	// Two rows of one INSERT with the same key.
	{mapping.ErrorTypeConstraint, "PRIMARY KEY or UNIQUE constraint violation", sqlstate.UniqueViolation},
	// Dates and times: a field out of range ("2024-13-45") or text that is
	// no date at all, before the numeric "out of range" below.
	{mapping.ErrorTypeConversion, " field value out of range", sqlstate.DatetimeFieldOverflow},
	{mapping.ErrorTypeConversion, " field format", sqlstate.InvalidDatetimeFormat},
	{mapping.ErrorTypeConversion, "out of range", sqlstate.NumericValueOutOfRange},
	// bytea's hex form (see registerByteaIn), 22023 as in Postgres.
	{mapping.ErrorTypeConversion, "invalid hexadecimal ", sqlstate.InvalidParameterValue},
	// A full disk: DuckDB types it only as an I/O error (or a failed
	// commit) and renders the operating system's text for ENOSPC.
	{mapping.ErrorTypeErrorIO, "No space left on device", sqlstate.DiskFull},
	{mapping.ErrorTypeTransaction, "No space left on device", sqlstate.DiskFull},
	{mapping.ErrorTypeFatal, "No space left on device", sqlstate.DiskFull},
	{mapping.ErrorTypeInvalidInput, "More than one row returned by a subquery", sqlstate.CardinalityViolation},
	{mapping.ErrorTypeTransaction, "aborted", sqlstate.InFailedSQLTransaction},
	// Write-write conflicts of concurrent transactions: Postgres' 40001 is what clients retry on.
	{mapping.ErrorTypeTransaction, "Conflict on", sqlstate.SerializationFailure},
	{mapping.ErrorTypeTransaction, "PRIMARY KEY or UNIQUE constraint", sqlstate.UniqueViolation},
}

// errorFromResult maps the error of a failed execution of query.
func errorFromResult(res *mapping.Result, query string) error {
	kind := mapping.ResultErrorType(res)
	return marked(kind, mapError(kind, mapping.ResultError(res), query))
}

// accessError is DuckDB's refusal of a file, an ATTACH or an extension
// (its Permission exception, 42501), which only a sandboxed database
// gives: Conn.failure adds the hint of Config.SandboxHint.
type accessError struct{ err *sqlstate.Error }

func (e accessError) Error() string { return e.err.Error() }
func (e accessError) Unwrap() error { return e.err }

// marked marks e as an accessError, or an invalidatedError (see
// reopen.go), when DuckDB's exception type says so.
func marked(kind mapping.ErrorType, e *sqlstate.Error) error {
	switch kind {
	case mapping.ErrorTypePermission:
		return accessError{e}
	case mapping.ErrorTypeFatal:
		return invalidatedError{e}
	}
	return e
}

// errorFromData maps and destroys DuckDB error data; nil if it holds no error.
func errorFromData(ed mapping.ErrorData) error {
	defer mapping.DestroyErrorData(&ed)
	if !mapping.ErrorDataHasError(ed) {
		return nil
	}
	kind := mapping.ErrorDataErrorType(ed)
	return marked(kind, mapError(kind, mapping.ErrorDataMessage(ed), ""))
}

// errorFromDriver maps an error of duckdb-go's database/sql driver: a
// *duckdb.Error by its Type, anything else as errorFromMessage does.
func errorFromDriver(err error) error {
	var de *duckdb.Error
	if errors.As(err, &de) {
		kind := mapping.ErrorType(de.Type)
		return marked(kind, mapError(kind, de.Msg, ""))
	}
	return errorFromMessage(err.Error(), "")
}

// errorFromMessage maps an error known only by its message, typed by the
// "<Type> Error: " prefix DuckDB renders: the C API gives a failed prepare,
// a failed statement extraction, a failed pending execution and a failed
// open as text alone. query, if known, lets the error carry a position.
func errorFromMessage(msg, query string) error {
	kind := mapping.ErrorTypeInvalid
	if prefix, _, ok := strings.Cut(msg, " Error: "); ok {
		if k, ok := exceptionPrefixes[prefix]; ok {
			kind = k
		}
	}
	return marked(kind, mapError(kind, msg, query))
}

func mapError(kind mapping.ErrorType, msg, query string) *sqlstate.Error {
	e := &sqlstate.Error{Code: sqlstate.InternalError}
	if code, ok := exceptionCodes[kind]; ok {
		e.Code = code
	}
	body := msg
	if _, rest, ok := strings.Cut(msg, " Error: "); ok {
		body = rest
	}
	for _, r := range refinements {
		if r.kind == kind && strings.Contains(body, r.contains) {
			e.Code = r.code
			break
		}
	}
	if code, rest, ok := reported(body); ok {
		e.Code, body = code, rest
	}
	excerpt := ""
	if i := strings.Index(body, "\n\nLINE "); i >= 0 {
		body, excerpt = body[:i], body[i+2:]
	}
	lines := strings.Split(body, "\n")
	e.Message = strings.TrimSuffix(strings.TrimSpace(lines[0]), "!")
	var hints []string
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" && !suggestsSystemTable(l) {
			hints = append(hints, l)
		}
	}
	e.Hint = strings.Join(hints, " ")
	if e.Code == sqlstate.DiskFull {
		e.Message, e.Hint = "disk full: "+e.Message, diskFullHint
	}
	e.Position = position(excerpt, query)
	return e
}

// suggestsSystemTable reports whether hint is DuckDB's `Did you mean "x"?`
// naming a catalog table (sqlite_master, pg_class, duckdb_tables, or one
// of information_schema or pg_catalog) rather than one of the user's: a
// user who mistyped "films" wants no tour of the catalog.
func suggestsSystemTable(hint string) bool {
	name, ok := strings.CutPrefix(hint, "Did you mean ")
	if !ok {
		return false
	}
	name = strings.ToLower(strings.Trim(name, "\"?"))
	for _, p := range []string{"sqlite_", "pg_", "duckdb_", "information_schema.", "pg_catalog.", "system."} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// position turns DuckDB's excerpt "LINE n: <text>\n<spaces>^" into the
// 1-based character position in query that Postgres reports; 0 if unknown.
// DuckDB may shorten the line to "...<text>...", so the text is looked up
// in line n of the query.
func position(excerpt, query string) int {
	head, caret, ok := strings.Cut(excerpt, "\n")
	if !ok || query == "" {
		return 0
	}
	label, text, ok := strings.Cut(head, ": ")
	if !ok {
		return 0
	}
	col := strings.Index(caret, "^") - len(label) - 2
	if col < 0 || col > len(text) {
		return 0
	}
	n := 0
	for _, r := range strings.TrimPrefix(label, "LINE ") {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	lineStart := 0
	for i := 1; i < n; i++ {
		j := strings.IndexByte(query[lineStart:], '\n')
		if j < 0 {
			return 0
		}
		lineStart += j + 1
	}
	trimmed := strings.TrimPrefix(text, "...")
	col -= len(text) - len(trimmed)
	trimmed = strings.TrimSuffix(trimmed, "...")
	at := strings.Index(query[lineStart:], trimmed)
	if at < 0 || col < 0 {
		return 0
	}
	return utf8.RuneCountInString(query[:lineStart+at+col]) + 1
}

// goUDFError is how duckdb-go prefixes the error a Go scalar function
// returned, before DuckDB wraps it in its own exception.
const goUDFError = "database/sql/driver: API error: "

// reported reads the SQLSTATE a Mallard function wrote into its error
// text ("... (SQLSTATE 42501)", as sqlstate.Error renders itself), for
// the errors that reach a client only as text: those of a call whose
// caller could not be identified, so could not record the typed error
// (see Caller.Fail). It returns the code and the message without the
// duckdb-go prefix and the code.
func reported(body string) (sqlstate.Code, string, bool) {
	first, more, _ := strings.Cut(body, "\n")
	first = strings.TrimPrefix(first, goUDFError)
	const open = " (SQLSTATE "
	i := len(first) - len(open+"42501)")
	if i < 0 || first[i:i+len(open)] != open || !strings.HasSuffix(first, ")") {
		return "", body, false
	}
	code := first[i+len(open) : len(first)-1]
	for _, r := range code {
		if !('0' <= r && r <= '9' || 'A' <= r && r <= 'Z') {
			return "", body, false
		}
	}
	if more != "" {
		more = "\n" + more
	}
	return sqlstate.Code(code), first[:i] + more, true
}
