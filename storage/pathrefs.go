package storage

import (
	"strconv"
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// pathRef is a place in a statement where DuckDB takes a file name: a
// constant (value) or a parameter (param, 1-based) whose bound value is
// one. sql marks the argument of query(), which is SQL text whose own
// file names count.
type pathRef struct {
	value string
	param int
	sql   bool
	what  string // what takes it, for the error: "read_blob", "COPY", "FROM"
}

// tableStarters are the words after which a string constant or a quoted
// identifier is a table DuckDB may read from a file (a replacement scan:
// FROM 'data.csv').
var tableStarters = map[string]bool{"from": true, "join": true, "describe": true, "summarize": true,
	"show": true, "pivot": true, "unpivot": true, "pivot_wider": true, "pivot_longer": true, "table": true}

// clauseEnders end a FROM list: after them a comma no longer separates tables.
var clauseEnders = map[string]bool{"where": true, "group": true, "having": true, "order": true, "limit": true,
	"qualify": true, "window": true, "union": true, "except": true, "intersect": true, "on": true, "using": true,
	"select": true, "returning": true, "set": true, "values": true, "offset": true, "to": true, "with": true}

// isFileFunction reports whether DuckDB's function name takes a file name
// or a glob as its first argument: the readers (read_csv, read_parquet,
// read_json, read_blob, read_text, ... and any other read_*), parquet_*,
// sniff_csv, glob, the *_scan functions, query_table (whose table may be
// a file) and the import_database pragma.
func isFileFunction(name string) bool {
	switch name {
	case "glob", "query_table", "import_database", "sniff_csv":
		return true
	}
	return strings.HasPrefix(name, "read_") || strings.HasPrefix(name, "parquet_") || strings.HasSuffix(name, "_scan")
}

// findPathRefs returns the places in toks where DuckDB takes a file name.
// A file name DuckDB would compute when the statement runs (an expression,
// a column, getvariable()) is refused with 42501: the guard could not see
// it. So is a parameter in such a place inside SQL PREPARE, whose EXECUTE
// would carry the path where the guard does not look.
func findPathRefs(toks []token) ([]pathRef, error) {
	var refs []pathRef
	add := func(i int, what string) error {
		if i >= len(toks) {
			return nil
		}
		ref, err := refAt(toks, i, what, what == "FROM")
		if err == nil && ref != nil {
			refs = append(refs, *ref)
		}
		return err
	}
	if err := statementPath(toks, add); err != nil {
		return nil, err
	}
	fromList := map[int]bool{}
	depth := 0
	for i, t := range toks {
		switch {
		case t.kind == tokPunct && (t.text == "(" || t.text == "["):
			depth++
			fromList[depth] = false
		case t.kind == tokPunct && (t.text == ")" || t.text == "]"):
			fromList[depth] = false
			depth--
		case t.kind == tokPunct && t.text == "," && fromList[depth]:
			if err := tableRef(toks, i+1, add); err != nil {
				return nil, err
			}
		case t.kind == tokWord && tableStarters[t.text]:
			fromList[depth] = t.text == "from" || t.text == "join"
			if err := tableRef(toks, i+1, add); err != nil {
				return nil, err
			}
		case t.kind == tokWord && clauseEnders[t.text]:
			fromList[depth] = false
		case t.kind == tokWord && i+1 < len(toks) && toks[i+1].text == "(" && toks[i+1].kind == tokPunct:
			if err := functionArg(toks, i, &refs); err != nil {
				return nil, err
			}
		}
	}
	if len(toks) > 0 && toks[0].kind == tokWord && toks[0].text == "prepare" {
		for _, r := range refs {
			if r.param > 0 {
				return nil, computedPath(r.what, "a parameter of SQL PREPARE")
			}
		}
	}
	return refs, nil
}

// tableRef adds toks[i] when it is a string constant, or a quoted
// identifier that is not qualified, after a word that starts a table.
func tableRef(toks []token, i int, add func(int, string) error) error {
	if i >= len(toks) {
		return nil
	}
	switch toks[i].kind {
	case tokString, tokOpaque:
		return add(i, "FROM")
	case tokIdent:
		if i+1 < len(toks) && toks[i+1].text == "." {
			return nil
		}
		return add(i, "FROM")
	}
	return nil
}

// functionArg adds the first argument of the call of a file function
// whose name is toks[i]: a string constant, a list of them, or parameters.
func functionArg(toks []token, i int, refs *[]pathRef) error {
	name := toks[i].text
	if name != "query" && !isFileFunction(name) {
		return nil
	}
	arg := firstArg(toks, i+2)
	what := name + "()"
	if len(arg) == 0 {
		return nil
	}
	if len(arg) >= 2 && arg[0].text == "[" && arg[len(arg)-1].text == "]" {
		for j, t := range arg[1 : len(arg)-1] {
			if j%2 == 1 {
				if t.text != "," || t.kind != tokPunct {
					return computedPath(what, "an expression")
				}
				continue
			}
			ref, err := refAt([]token{t}, 0, what, false)
			if err != nil {
				return err
			}
			*refs = append(*refs, *ref)
		}
		return nil
	}
	if len(arg) != 1 {
		return computedPath(what, "an expression")
	}
	ref, err := refAt(arg, 0, what, false)
	if err != nil {
		return err
	}
	ref.sql = name == "query"
	*refs = append(*refs, *ref)
	return nil
}

// firstArg returns the tokens of the first argument of a call whose
// arguments start at toks[i].
func firstArg(toks []token, i int) []token {
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.kind != tokPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 {
				return toks[i:j]
			}
			depth--
		case ",":
			if depth == 0 {
				return toks[i:j]
			}
		}
	}
	return toks[i:]
}

// refAt is the path at toks[i], which must be a string constant or a
// parameter, or where ident is true (a table name) a quoted identifier.
func refAt(toks []token, i int, what string, ident bool) (*pathRef, error) {
	t := toks[i]
	switch {
	case t.kind == tokString, t.kind == tokIdent && ident:
		return &pathRef{value: t.text, what: what}, nil
	case t.kind == tokParam:
		n, err := strconv.Atoi(t.text)
		if err != nil || n <= 0 {
			return nil, computedPath(what, "a named parameter")
		}
		return &pathRef{param: n, what: what}, nil
	case t.kind == tokOpaque:
		return nil, computedPath(what, "a string with escapes")
	}
	return nil, computedPath(what, "an expression")
}

// statementPath adds the file name of COPY, EXPORT DATABASE, IMPORT
// DATABASE and ATTACH.
func statementPath(toks []token, add func(int, string) error) error {
	word := func(i int, w string) bool { return i < len(toks) && toks[i].kind == tokWord && toks[i].text == w }
	if len(toks) == 0 || toks[0].kind != tokWord {
		return nil
	}
	switch toks[0].text {
	case "copy":
		if word(1, "from") && word(2, "database") {
			return nil
		}
		depth := 0
		for i := 1; i < len(toks); i++ {
			switch t := toks[i]; {
			case t.kind == tokPunct && t.text == "(":
				depth++
			case t.kind == tokPunct && t.text == ")":
				depth--
			case depth == 0 && (word(i, "to") || word(i, "from")):
				if word(i+1, "stdin") || word(i+1, "stdout") {
					return nil
				}
				return add(i+1, "COPY")
			}
		}
	case "export":
		i := 2
		if i+1 < len(toks) && toks[i].kind != tokString && word(i+1, "to") {
			i += 2
		}
		return add(i, "EXPORT DATABASE")
	case "import":
		return add(2, "IMPORT DATABASE")
	case "attach":
		i := 1
		for word(i, "or") || word(i, "replace") || word(i, "database") || word(i, "if") || word(i, "not") || word(i, "exists") {
			i++
		}
		return add(i, "ATTACH")
	}
	return nil
}

// computedPath is the refusal of a file name the guard cannot read.
func computedPath(what, form string) error {
	return sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied: the file name of %s is %s; Mallard accepts only a string constant, a list of them, or a parameter there", what, form).
		WithHint("Write the file name as a string constant, such as read_csv('/data/sales.csv').")
}
