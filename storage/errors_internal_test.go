package storage

import (
	"fmt"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
)

// TestErrorFromDriverUsesType: an error of duckdb-go's driver is mapped by
// its *duckdb.Error Type, also when wrapped and when its text carries no
// "<Type> Error: " prefix to read the type from.
func TestErrorFromDriverUsesType(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want sqlstate.Code
	}{
		{"typed, no prefix", &duckdb.Error{Type: duckdb.ErrorTypeDivideByZero, Msg: "division by zero"}, sqlstate.DivisionByZero},
		{"wrapped", fmt.Errorf("exec: %w", &duckdb.Error{Type: duckdb.ErrorTypeOutOfMemory, Msg: "could not allocate"}), sqlstate.OutOfMemory},
		{"typed with refinement", &duckdb.Error{Type: duckdb.ErrorTypeConstraint, Msg: "Constraint Error: NOT NULL constraint failed: t.v"}, sqlstate.NotNullViolation},
		{"untyped text", fmt.Errorf("Catalog Error: Table with name nope does not exist!"), sqlstate.UndefinedTable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sqlstate.CodeOf(errorFromDriver(tt.err)); got != tt.want {
				t.Errorf("code = %s, want %s", got, tt.want)
			}
		})
	}
}

// refinementCases are DuckDB 1.5's messages, as its C API renders them,
// for every refinement: each names its exception type and the code it
// must get. Those of the Catalog, Binder, Constraint and Conversion types
// were captured from DuckDB; the full-disk ones, which a test cannot
// provoke, carry the operating system's ENOSPC text in DuckDB's frames.
var refinementCases = []struct {
	kind mapping.ErrorType
	msg  string
	want sqlstate.Code
}{
	{mapping.ErrorTypeCatalog, `Catalog Error: Table with name "t" already exists!`, sqlstate.DuplicateTable},
	{mapping.ErrorTypeCatalog, "Catalog Error: Scalar Function with name nofunc does not exist!\nDid you mean \"count\"?", sqlstate.UndefinedFunction},
	{mapping.ErrorTypeCatalog, "Catalog Error: Macro Function with name nope does not exist!", sqlstate.UndefinedFunction},
	{mapping.ErrorTypeCatalog, "Catalog Error: Table with name nope does not exist!", sqlstate.UndefinedTable},
	{mapping.ErrorTypeCatalog, "Catalog Error: View with name nope does not exist!", sqlstate.UndefinedTable},
	{mapping.ErrorTypeCatalog, "Catalog Error: Schema with name nosuch does not exist!", sqlstate.InvalidSchemaName},
	{mapping.ErrorTypeBinder, `Binder Error: Referenced column "nope" not found in FROM clause!`, sqlstate.UndefinedColumn},
	{mapping.ErrorTypeBinder, `Binder Error: Table "t" does not have a column with name "nope"`, sqlstate.UndefinedColumn},
	{mapping.ErrorTypeBinder, "Binder Error: No function matches the given name and argument types 'lower(INTEGER)'.", sqlstate.UndefinedFunction},
	{mapping.ErrorTypeBinder, `Binder Error: Ambiguous reference to column name "id" (use: "t.id" or "u.id")`, sqlstate.AmbiguousColumn},
	{mapping.ErrorTypeBinder, "Binder Error: table t has 4 columns but 1 values were supplied", sqlstate.SyntaxError},
	{mapping.ErrorTypeBinder, `Binder Error: column "id" must appear in the GROUP BY clause or must be part of an aggregate function.`, sqlstate.GroupingError},
	{mapping.ErrorTypeConstraint, "Constraint Error: NOT NULL constraint failed: t.v", sqlstate.NotNullViolation},
	{mapping.ErrorTypeConstraint, "Constraint Error: CHECK constraint failed on table t with expression CHECK((n > 0))", sqlstate.CheckViolation},
	{mapping.ErrorTypeConstraint, `Constraint Error: Violates foreign key constraint because key "id: 9" does not exist in the referenced table`, sqlstate.ForeignKeyViolation},
	{mapping.ErrorTypeConstraint, `Constraint Error: Duplicate key "id: 1" violates primary key constraint.`, sqlstate.UniqueViolation},
	{mapping.ErrorTypeConstraint, `Constraint Error: PRIMARY KEY or UNIQUE constraint violation: duplicate key "5"`, sqlstate.UniqueViolation},
	{mapping.ErrorTypeConversion, `Conversion Error: date field value out of range: "2024-02-30"`, sqlstate.DatetimeFieldOverflow},
	{mapping.ErrorTypeConversion, `Conversion Error: invalid timestamp field format: "noon", expected format is (YYYY-MM-DD HH:MM:SS[.US][±HH[:MM[:SS]]| ZONE])`, sqlstate.InvalidDatetimeFormat},
	{mapping.ErrorTypeConversion, "Conversion Error: Type INT64 with value 99999999999 can't be cast because the value is out of range for the destination type INT32", sqlstate.NumericValueOutOfRange},
	{mapping.ErrorTypeConversion, `Conversion Error: invalid hexadecimal digit: "z"`, sqlstate.InvalidParameterValue},
	{mapping.ErrorTypeErrorIO, `IO Error: Could not write file "/data/x.duckdb.wal": No space left on device`, sqlstate.DiskFull},
	{mapping.ErrorTypeTransaction, "TransactionContext Error: Failed to commit: Could not write file \"x.duckdb\": No space left on device", sqlstate.DiskFull},
	{mapping.ErrorTypeFatal, "FATAL Error: Failed: database has been invalidated because of a previous fatal error. The original error was: \"No space left on device\"", sqlstate.DiskFull},
	{mapping.ErrorTypeInvalidInput, "Invalid Input Error: More than one row returned by a subquery used as an expression - scalar subqueries can only return a single row.", sqlstate.CardinalityViolation},
	{mapping.ErrorTypeTransaction, "TransactionContext Error: Current transaction is aborted (please ROLLBACK)", sqlstate.InFailedSQLTransaction},
	{mapping.ErrorTypeTransaction, "TransactionContext Error: Conflict on tuple deletion!", sqlstate.SerializationFailure},
	{mapping.ErrorTypeTransaction, `TransactionContext Error: Failed to commit: PRIMARY KEY or UNIQUE constraint violation: duplicate key "1"`, sqlstate.UniqueViolation},
}

// TestRefinementsEachTested maps each of refinementCases by its type and
// text, and checks that every refinement has a case that it decides.
func TestRefinementsEachTested(t *testing.T) {
	for _, tc := range refinementCases {
		if got := mapError(tc.kind, tc.msg, "").Code; got != tc.want {
			t.Errorf("%s: code = %s, want %s", tc.msg, got, tc.want)
		}
		// Without its refinement the type alone gives another code.
		if exceptionCodes[tc.kind] == tc.want {
			t.Errorf("%s: the exception type alone gives %s; the refinement is not needed", tc.msg, tc.want)
		}
	}
	for _, r := range refinements {
		tested := false
		for _, tc := range refinementCases {
			tested = tested || tc.kind == r.kind && strings.Contains(tc.msg, r.contains) && tc.want == r.code && first(tc.kind, tc.msg) == r
		}
		if !tested {
			t.Errorf("refinement %q of type %d has no case", r.contains, r.kind)
		}
	}
}

// first is the refinement that decides msg of type kind.
func first(kind mapping.ErrorType, msg string) refinement {
	for _, r := range refinements {
		if r.kind == kind && strings.Contains(msg, r.contains) {
			return r
		}
	}
	return refinement{}
}
