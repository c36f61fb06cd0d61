// Package sqlstate defines Postgres SQLSTATE codes and the error type that
// carries one. Every layer of Mallard that reports an error to a client
// returns an *Error (or wraps one), and sqlfront sends it as an ErrorResponse.
package sqlstate

import (
	"errors"
	"fmt"
)

// Code is a five-character Postgres SQLSTATE.
type Code string

// The codes Mallard sends. Names follow the Postgres documentation, Appendix A.
const (
	SuccessfulCompletion         Code = "00000"
	Warning                      Code = "01000"
	ConnectionException          Code = "08000"
	ConnectionFailure            Code = "08006"
	ProtocolViolation            Code = "08P01"
	FeatureNotSupported          Code = "0A000"
	InvalidAuthorization         Code = "28000"
	InvalidPassword              Code = "28P01"
	CardinalityViolation         Code = "21000"
	DataException                Code = "22000"
	NullValueNotAllowed          Code = "22004"
	StringDataRightTruncation    Code = "22001"
	NumericValueOutOfRange       Code = "22003"
	InvalidDatetimeFormat        Code = "22007"
	DatetimeFieldOverflow        Code = "22008"
	DivisionByZero               Code = "22012"
	InvalidParameterValue        Code = "22023"
	InvalidTextRepresentation    Code = "22P02"
	BadCopyFileFormat            Code = "22P04"
	InvalidBinaryRepresentation  Code = "22P03"
	IntegrityConstraintViolation Code = "23000"
	NotNullViolation             Code = "23502"
	ForeignKeyViolation          Code = "23503"
	UniqueViolation              Code = "23505"
	CheckViolation               Code = "23514"
	InvalidCursorState           Code = "24000"
	ActiveSQLTransaction         Code = "25001"
	NoActiveSQLTransaction       Code = "25P01"
	InFailedSQLTransaction       Code = "25P02"
	ReadOnlySQLTransaction       Code = "25006"
	InvalidSQLStatementName      Code = "26000"
	InvalidCursorName            Code = "34000"
	InvalidSavepoint             Code = "3B001"
	SerializationFailure         Code = "40001"
	SyntaxErrorOrAccessRule      Code = "42000"
	SyntaxError                  Code = "42601"
	InvalidName                  Code = "42602"
	InvalidSchemaName            Code = "3F000"
	InvalidTransactionState      Code = "25000"
	InsufficientPrivilege        Code = "42501"
	UndefinedColumn              Code = "42703"
	UndefinedFunction            Code = "42883"
	UndefinedTable               Code = "42P01"
	UndefinedObject              Code = "42704"
	UndefinedParameter           Code = "42P02"
	DuplicateObject              Code = "42710"
	DuplicateTable               Code = "42P07"
	DuplicatePreparedStatement   Code = "42P05"
	DuplicateCursor              Code = "42P03"
	DatatypeMismatch             Code = "42804"
	GroupingError                Code = "42803"
	WrongObjectType              Code = "42809"
	AmbiguousColumn              Code = "42702"
	IndeterminateDatatype        Code = "42P18"
	DependentObjectsStillExist   Code = "2BP01"
	ProgramLimitExceeded         Code = "54000"
	TooManyConnections           Code = "53300"
	OutOfMemory                  Code = "53200"
	DiskFull                     Code = "53100"
	ObjectNotInPrerequisiteState Code = "55000"
	ObjectInUse                  Code = "55006"
	CantChangeRuntimeParam       Code = "55P02"
	QueryCanceled                Code = "57014"
	AdminShutdown                Code = "57P01"
	IOError                      Code = "58030"
	UndefinedFile                Code = "58P01"
	DuplicateFile                Code = "58P02"
	InternalError                Code = "XX000"
	DataCorrupted                Code = "XX001"
)

// Error is an error with a SQLSTATE and the optional fields of a Postgres
// ErrorResponse. Position is 1-based in characters of the statement text; 0
// means unknown.
type Error struct {
	Code     Code
	Message  string
	Detail   string
	Hint     string
	Position int
	// Where is the context line, such as "COPY t, line 3".
	Where string
	// Severity is "ERROR" unless set to "FATAL" (the connection ends).
	Severity string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s (SQLSTATE %s)", e.Message, e.Code)
}

// New returns an *Error with the given code and formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// From returns err as an *Error: the *Error it wraps if there is one,
// otherwise an InternalError carrying err's text.
func From(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: InternalError, Message: err.Error()}
}

// CodeOf returns the SQLSTATE of err, or "" if err carries none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// WithHint sets e's hint to the formatted text and returns e.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// WithDetail sets e's detail to the formatted text and returns e.
func (e *Error) WithDetail(format string, args ...any) *Error {
	e.Detail = fmt.Sprintf(format, args...)
	return e
}
