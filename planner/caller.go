package planner

import (
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// CallerArgument is the hidden named argument through which Mallard's table
// functions learn which connection's statement called them: its value is a
// JSON object holding the connection's id (from the session variable of the
// same name), its current schema and its search path.
const CallerArgument = "mallard_connection"

// callerValue is the value of CallerArgument, evaluated on the calling connection.
const callerValue = "CAST(json_object(" + callerFields + ") AS VARCHAR)"

const callerFields = "'id', getvariable('" + CallerArgument + "'), 'schema', current_schema(), " +
	"'search_path', current_setting('search_path')"

// callerWith is callerValue with what the function must refuse of a call
// in its own words, where DuckDB's message would list the caller argument
// and every argument's type as VARCHAR: under "unknown" the names of the
// named arguments the call gave that the function does not have, and
// under "positional" the number of positional values the call gave when
// the function takes another number (-1: it gave what it takes).
func callerWith(unknown []string, positional int) string {
	if len(unknown) == 0 && positional < 0 {
		return callerValue
	}
	fields := callerFields
	if len(unknown) > 0 {
		names := make([]string, len(unknown))
		for i, n := range unknown {
			names[i] = "'" + strings.ReplaceAll(n, "'", "''") + "'"
		}
		fields += ", 'unknown', [" + strings.Join(names, ", ") + "]"
	}
	if positional >= 0 {
		fields += ", 'positional', " + strconv.Itoa(positional)
	}
	return "CAST(json_object(" + fields + ") AS VARCHAR)"
}

// signatures are the arguments of Mallard's table functions, by function:
// the names of the named ones, and of the positional ones in order (see
// plan.Catalog).
type signatures struct {
	named, positional map[string][]string
}

// Calls of Mallard's table functions are rewritten on their way to DuckDB,
// because duckdb-go hands a table function its arguments only when every
// declared named argument is given and none is a list:
//   - every argument value v becomes coalesce(CAST(to_json(v) AS VARCHAR), 'null'),
//     so lists, numbers and NULL all arrive as JSON text;
//   - every named argument the call leaves out is given as 'null' (not given);
//   - argument names are quoted, so that keywords such as time can name one;
//   - mallard_connection := <the caller, see CallerArgument> is added;
//   - a named argument the function does not have is dropped, and its name
//     passed in the caller (see callerWith);
//   - positional values beyond those the function takes are dropped, those
//     missing are given as 'null', and the count given is passed in the
//     caller (see callerWith).
// The rewrite works on tokens, not on the parse tree, so that it also
// applies to DuckDB-dialect statements the Postgres parser rejects, and
// leaves the rest of the text as the client wrote it.

// callArg is one argument of a call: its name if it is a named one, and the
// text of its value.
type callArg struct{ name, value string }

// rewriteCalls rewrites the calls in text of the table functions in fns,
// which maps each function to the names of its named arguments, and of the
// operations in ops, and returns the names of the functions called.
//
// Operations are scalar functions named schema.function (mlops.cancel):
// DuckDB knows them as schema_function, since a function registered
// through duckdb-go cannot live in a schema. Their calls become
// schema_function(<the caller>, <each argument as JSON text>).
//
// Scalars are scalar functions that take the caller before their own
// arguments, which keep their values and types (DuckDB picks an overload
// by them): name(a, b) becomes name(<the caller>, a, b).
func rewriteCalls(text string, sigs signatures, ops, scalars map[string]bool) (string, []string) {
	fns := sigs.named
	if len(fns)+len(ops)+len(scalars) == 0 || !mentionsAny(text, fns, ops, scalars) {
		return text, nil
	}
	res, err := pg.Scan(text)
	if err != nil {
		return text, nil
	}
	var calls []string
	toks := res.Tokens
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for i := 0; i+1 < len(toks); i++ {
		name := strings.ToLower(text[toks[i].Start:toks[i].End])
		if toks[i].Token != pg.Token_IDENT {
			continue
		}
		// The function's name may be a keyword token (rollback, drop).
		if i+3 < len(toks) && toks[i+1].Token == pg.Token_ASCII_46 && toks[i+3].Token == pg.Token_ASCII_40 {
			op := name + "." + strings.ToLower(text[toks[i+2].Start:toks[i+2].End])
			if ops[op] {
				args, end := splitArgs(text, toks, i+3)
				if end < 0 {
					continue
				}
				edits = append(edits, edit{from: int(toks[i].Start), to: end, text: strings.ReplaceAll(op, ".", "_") + "(" + opArgs(args)})
				calls = append(calls, op)
				i += 3
				continue
			}
		}
		if scalars[name] && toks[i+1].Token == pg.Token_ASCII_40 && (i == 0 || toks[i-1].Token != pg.Token_ASCII_46) {
			args, end := splitArgs(text, toks, i+1)
			if end < 0 || len(args) > 0 && strings.Contains(args[0].value, "getvariable('"+CallerArgument+"')") {
				continue
			}
			insert := callerValue
			if len(args) > 0 {
				insert += ", "
			}
			edits = append(edits, edit{from: int(toks[i+1].End), to: int(toks[i+1].End), text: insert})
			calls = append(calls, name)
			continue
		}
		named, ok := fns[name]
		if !ok || toks[i+1].Token != pg.Token_ASCII_40 {
			continue
		}
		args, end := splitArgs(text, toks, i+1)
		if end < 0 || hasArg(args, CallerArgument) {
			continue
		}
		positional, known := sigs.positional[name]
		if !known {
			positional = nil
		}
		edits = append(edits, edit{from: int(toks[i+1].End), to: end, text: callText(args, named, positional, known)})
		calls = append(calls, name)
	}
	for k := len(edits) - 1; k >= 0; k-- {
		e := edits[k]
		text = text[:e.from] + e.text + text[e.to:]
	}
	return text, calls
}

// splitArgs splits the arguments of the call whose opening parenthesis is
// toks[open], and returns them with the byte offset of the closing one
// (-1 if the call is not closed).
func splitArgs(text string, toks []*pg.ScanToken, open int) ([]callArg, int) {
	var args []callArg
	depth, start, first := 0, int(toks[open].End), open+1
	for k := open; k < len(toks); k++ {
		t := toks[k]
		switch t.Token {
		case pg.Token_ASCII_40, pg.Token_ASCII_91:
			depth++
			continue
		case pg.Token_ASCII_41, pg.Token_ASCII_93:
			depth--
			if depth > 0 {
				continue
			}
		case pg.Token_ASCII_44:
			if depth != 1 {
				continue
			}
		default:
			continue
		}
		if strings.TrimSpace(text[start:t.Start]) != "" {
			args = append(args, argOf(text, toks[first:k], start, int(t.Start)))
		}
		if depth == 0 {
			return args, int(t.Start)
		}
		start, first = int(t.End), k+1
	}
	return nil, -1
}

// argOf reads one argument: `name := value`, `name => value` or `value`.
func argOf(text string, toks []*pg.ScanToken, start, end int) callArg {
	if len(toks) >= 2 && (toks[1].Token == pg.Token_COLON_EQUALS || toks[1].Token == pg.Token_EQUALS_GREATER) {
		name := text[toks[0].Start:toks[0].End]
		if strings.HasPrefix(name, `"`) {
			name = strings.ReplaceAll(strings.Trim(name, `"`), `""`, `"`)
		} else {
			name = strings.ToLower(name)
		}
		return callArg{name: name, value: strings.TrimSpace(text[toks[1].End:end])}
	}
	return callArg{value: strings.TrimSpace(text[start:end])}
}

func hasArg(args []callArg, name string) bool {
	for _, a := range args {
		if a.name == name {
			return true
		}
	}
	return false
}

// jsonArg is an argument value as JSON text; 'null' for NULL.
func jsonArg(value string) string { return "coalesce(CAST(to_json(" + value + ") AS VARCHAR), 'null')" }

// opArgs is the rewritten argument list of an operation: the caller first,
// then each argument's value (names are dropped: operations take positional
// arguments only).
func opArgs(args []callArg) string {
	parts := []string{callerValue}
	for _, a := range args {
		parts = append(parts, jsonArg(a.value))
	}
	return strings.Join(parts, ", ")
}

// callText is the rewritten argument list. When checked, the function
// takes exactly the positional arguments named in positional.
func callText(args []callArg, named, positional []string, checked bool) string {
	var parts, unknown []string
	given := 0
	for _, a := range args {
		if a.name != "" && !slices.Contains(named, a.name) {
			unknown = append(unknown, a.name)
			continue
		}
		v := jsonArg(a.value)
		if a.name != "" {
			v = quoteIdent(a.name) + " := " + v
		} else if given++; checked && given > len(positional) {
			continue
		}
		parts = append(parts, v)
	}
	wrong := -1
	if checked && given != len(positional) {
		wrong = given
		for range len(positional) - given {
			parts = append([]string{"'null'"}, parts...)
		}
	}
	for _, n := range named {
		if !hasArg(args, n) {
			parts = append(parts, quoteIdent(n)+" := 'null'")
		}
	}
	parts = append(parts, CallerArgument+" := "+callerWith(unknown, wrong))
	return strings.Join(parts, ", ")
}

func mentionsAny(text string, fns map[string][]string, ops, scalars map[string]bool) bool {
	lower := strings.ToLower(text)
	for f := range scalars {
		if strings.Contains(lower, f) {
			return true
		}
	}
	for f := range fns {
		if strings.Contains(lower, f) {
			return true
		}
	}
	for op := range ops {
		if _, fn, _ := strings.Cut(op, "."); strings.Contains(lower, fn) {
			return true
		}
	}
	return false
}
