// Package plan is what the planner hands the wire server: statements as
// plain data (Statement, with its Setting, CursorOp, Copy and DDL steps),
// the run-time parameters a session knows, and Mallard's light,
// parser-free view of SQL text. It splits a simple-Query string into
// statements, classifies each statement (which decides how the wire server
// runs it and which CommandComplete tag it sends) and parses the COPY
// statements that the server carries out itself. It works from a lexer,
// not a parser: it looks at the leading keywords of a statement and leaves
// every other judgement, syntax errors included, to the engine. Package
// planner refines these statements with the Postgres parser (cgo); this
// package needs no cgo, so sqlfront builds without it.
package plan

import "strings"

// Statement is one SQL statement of a query string.
type Statement struct {
	// Text is the statement without its terminating semicolon and without
	// surrounding whitespace. Comments inside it, leading ones included,
	// are kept.
	Text string
	// Offset is the byte offset of Text in the string it was split from.
	// Classify sets it to 0.
	Offset int
	// Kind says what sort of statement it is.
	Kind Kind
	// Tag is the CommandComplete tag Postgres sends for the statement,
	// before any row count; "" for KindEmpty.
	Tag string
	// Returning is set on a KindInsert, KindUpdate, KindDelete or KindMerge
	// statement that has a RETURNING clause, which makes it return rows.
	Returning bool
	// Rewritten says Text is the planner's rewrite of the client's text,
	// so error positions from DuckDB no longer point into the client's text.
	Rewritten bool
	// Setting is set for SET, RESET, SHOW and set_config() of a parameter;
	// for set_config() it is the first of SetConfig.
	Setting *Setting
	// SetConfig are the set_config() calls of a KindSetConfig statement,
	// one per result column, in order.
	SetConfig []Setting
	// Before are statements to run first, such as the sequence a serial
	// column needs.
	Before []string
	// Deallocate is the prepared statement DEALLOCATE names, "*" for ALL.
	Deallocate string
	// Prepare is the name SQL PREPARE gives the statement it prepares.
	Prepare string
	// Cursor is set for DECLARE, FETCH, MOVE and CLOSE of a cursor.
	Cursor *CursorOp
	// Savepoint is the savepoint a KindSavepoint statement names, as
	// Postgres folds it (unquoted names lower-cased); Tag says which
	// statement it is: SAVEPOINT, RELEASE or ROLLBACK (TO).
	Savepoint string
	// Calls are the Mallard table functions the statement calls (lower case).
	Calls []string
	// Notices are NOTICE messages the server sends before it runs the
	// statement, such as the warning that a dump comes from a newer pg_dump.
	Notices []string
	// DDL is set for a statement the server carries out in steps of its
	// own (see DDL); Text then plays no part.
	DDL *DDL
	// Unsupported names a Postgres feature the statement needs that Mallard
	// lacks; the server refuses it with 0A000.
	Unsupported string
	// ArrayParams are the parameters (0-based) that the statement compares
	// with ANY or ALL and whose type the client left to the server. Text
	// tests them with list_contains, only so that DuckDB infers each to be
	// a list of the type it is compared with; plan the client's text again
	// with PlanParse, declaring those types, to run the statement with
	// Postgres' semantics.
	ArrayParams []int
	// ParamCasts are the Postgres types the statement casts its parameters
	// to ($1::int), by 0-based parameter, as the parser names them (int4,
	// int8, float8, text, int4[]); "" where it casts none. A front end
	// describes a parameter with them where the engine cannot tell its type.
	ParamCasts []string
}

// CursorOp is DECLARE, FETCH, MOVE or CLOSE of an SQL cursor.
type CursorOp struct {
	Op   string // "declare", "fetch", "move" or "close"
	Name string // as Postgres folds it (unquoted names lower-cased); "" with close means CLOSE ALL
	// Query is the planned query of DECLARE.
	Query *Statement
	// Count is the number of rows FETCH or MOVE asks for; 0 means ALL.
	Count int64
	// Hold is DECLARE ... WITH HOLD: the cursor outlives its transaction.
	Hold bool
}

// Split splits a query string into statements at top-level semicolons:
// those outside string constants, quoted identifiers, comments and
// parentheses. It understands doubled quotes in single-quoted strings,
// backslash escapes in E'…' strings, "" escapes in double-quoted
// identifiers, dollar quoting ($$…$$ and $tag$…$tag$), -- line comments and
// nested /* */ block comments.
//
// Statements that are empty or hold only comments are dropped, so a string
// without any statement gives a slice of length zero (the server answers it
// with EmptyQueryResponse). Each statement is classified as by Classify and
// carries its Offset in query.
func Split(query string) []Statement {
	stmts := []Statement{}
	lx := lexer{src: query}
	start, depth, seen := 0, 0, false
	for {
		t := lx.next()
		switch {
		case t.kind == tokEOF || depth == 0 && t.is(";"):
			if seen {
				stmts = append(stmts, statementAt(query, start, t.pos))
			}
			if t.kind == tokEOF {
				return stmts
			}
			start, seen = t.pos+1, false
			continue
		case t.is("("):
			depth++
		case t.is(")"):
			depth = max(depth-1, 0)
		}
		seen = true
	}
}

// statementAt classifies query[start:end] with surrounding whitespace
// trimmed.
func statementAt(query string, start, end int) Statement {
	const space = " \t\n\r\f\v"
	text := strings.TrimLeft(query[start:end], space)
	offset := end - len(text)
	s := Classify(strings.TrimRight(text, space))
	s.Offset = offset
	return s
}
