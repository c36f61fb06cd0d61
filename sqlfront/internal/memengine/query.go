package memengine

import (
	"strconv"
	"strings"

	"github.com/mallard/mallard/sqltype"
)

// A query is what memengine can run: rows of cells under typed columns,
// the cells constants or parameters.
type query struct {
	cols   []sqltype.Column
	params []sqltype.Type
	rows   [][]cell
}

// cell is one value of a row: the constant value (an int64 or a string),
// or parameter param (counted from 1) when param is not 0.
type cell struct {
	value any
	param int
}

// castTypes are the types a parameter may be cast to, by the name the
// cast spells: what DuckDB gives a parameter cast so, VARCHAR under the
// alias that Mallard's planner casts it to.
var castTypes = map[string]sqltype.Type{
	"INTEGER": {ID: sqltype.Integer},
	"INT":     {ID: sqltype.Integer},
	"INT4":    {ID: sqltype.Integer},
	"BIGINT":  {ID: sqltype.BigInt},
	"INT8":    {ID: sqltype.BigInt},
	"TEXT":    {ID: sqltype.Varchar},
	"VARCHAR": {ID: sqltype.Varchar, Alias: sqltype.AliasVarchar},
}

// parseSelect reads "SELECT item, ..." where an item is an integer, a
// single-quoted string (a quote inside doubled) or a parameter cast to one of
// castTypes ($1::INTEGER), each optionally followed by AS and a name.
// Unnamed columns are named ?column?, as DuckDB names them through
// Mallard's planner.
func parseSelect(text string) (*query, bool) {
	rest, ok := cutKeyword(strings.TrimSpace(text), "SELECT")
	if !ok {
		return nil, false
	}
	q := &query{rows: [][]cell{nil}}
	for {
		var c cell
		var t sqltype.Type
		if c, t, rest, ok = item(strings.TrimSpace(rest)); !ok {
			return nil, false
		}
		name := "?column?"
		if after, ok := cutKeyword(strings.TrimSpace(rest), "AS"); ok {
			if name, rest, ok = identifier(strings.TrimSpace(after)); !ok {
				return nil, false
			}
		}
		if c.param > 0 && !q.setParam(c.param, t) {
			return nil, false
		}
		q.cols = append(q.cols, sqltype.Column{Name: name, Type: t})
		q.rows[0] = append(q.rows[0], c)
		if rest, ok = nextItem(rest); !ok {
			return nil, false
		}
		if rest == "" {
			return q, q.paramsComplete()
		}
	}
}

// parseValues reads "VALUES (c, ...), ..." of constants, every row of the
// first row's types or NULL, into columns named col0, col1... as DuckDB
// names them.
func parseValues(text string) (*query, bool) {
	rest, ok := cutKeyword(strings.TrimSpace(text), "VALUES")
	if !ok {
		return nil, false
	}
	q := &query{}
	for {
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, "(") {
			return nil, false
		}
		var row []cell
		if row, rest, ok = q.valuesRow(rest[1:]); !ok {
			return nil, false
		}
		q.rows = append(q.rows, row)
		if rest, ok = nextItem(rest); !ok {
			return nil, false
		}
		if rest == "" {
			return q, true
		}
	}
}

// valuesRow reads the constants of one VALUES row after its "(", checking
// them against the columns of the rows before it, and returns the text
// after its ")".
func (q *query) valuesRow(s string) ([]cell, string, bool) {
	var row []cell
	for {
		i := len(row)
		v, rest, ok := constant(strings.TrimSpace(s))
		if null, after, isNull := nullKeyword(strings.TrimSpace(s)); isNull && len(q.rows) > 0 {
			v, rest, ok = null, after, i < len(q.cols)
		}
		if !ok {
			return nil, "", false
		}
		switch t := constantType(v); {
		case len(q.rows) == 0:
			q.cols = append(q.cols, sqltype.Column{Name: "col" + strconv.Itoa(i), Type: t})
		case i >= len(q.cols) || v != nil && q.cols[i].Type.ID != t.ID:
			return nil, "", false
		}
		row = append(row, cell{value: v})
		s = strings.TrimSpace(rest)
		switch {
		case strings.HasPrefix(s, ","):
			s = s[1:]
		case strings.HasPrefix(s, ")") && len(row) == len(q.cols):
			return row, s[1:], true
		default:
			return nil, "", false
		}
	}
}

// setParam records that parameter n has type t; a parameter used twice
// must be cast alike.
func (q *query) setParam(n int, t sqltype.Type) bool {
	for len(q.params) < n {
		q.params = append(q.params, sqltype.Type{})
	}
	if p := q.params[n-1]; p.ID != sqltype.Invalid && (p.ID != t.ID || p.Alias != t.Alias) {
		return false
	}
	q.params[n-1] = t
	return true
}

// paramsComplete reports whether every parameter up to the highest is used.
func (q *query) paramsComplete() bool {
	for _, p := range q.params {
		if p.ID == sqltype.Invalid {
			return false
		}
	}
	return true
}

// item reads one select-list item at the start of s: a constant, or a
// parameter cast to one of castTypes.
func item(s string) (cell, sqltype.Type, string, bool) {
	if !strings.HasPrefix(s, "$") {
		v, rest, ok := constant(s)
		return cell{value: v}, constantType(v), rest, ok
	}
	end := 1
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[1:end])
	if err != nil || n < 1 || n > 1000 || !strings.HasPrefix(s[end:], "::") {
		return cell{}, sqltype.Type{}, "", false
	}
	name, rest, ok := identifier(s[end+2:])
	t, known := castTypes[strings.ToUpper(name)]
	if !ok || !known {
		return cell{}, sqltype.Type{}, "", false
	}
	return cell{param: n}, t, rest, true
}

// nullKeyword reads NULL at the start of s, which a VALUES row after the
// first may hold in place of a constant: the first row sets the types.
func nullKeyword(s string) (any, string, bool) {
	if len(s) < 4 || !strings.EqualFold(s[:4], "NULL") || len(s) > 4 && !strings.ContainsRune(", \t\r\n)", rune(s[4])) {
		return nil, "", false
	}
	return nil, s[4:], true
}

// constantType is the type DuckDB gives an integer or a string constant.
func constantType(v any) sqltype.Type {
	if _, ok := v.(int64); ok {
		return sqltype.Type{ID: sqltype.Integer}
	}
	return sqltype.Type{ID: sqltype.Varchar}
}

// identifier reads an unquoted identifier at the start of s.
func identifier(s string) (string, string, bool) {
	end := 0
	for end < len(s) && (s[end] == '_' || s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z' ||
		end > 0 && s[end] >= '0' && s[end] <= '9') {
		end++
	}
	return s[:end], s[end:], end > 0
}

// nextItem reads the separator after a list item: "" at the end of the
// text, or the text after a comma.
func nextItem(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", true
	}
	if s[0] != ',' {
		return "", false
	}
	rest := strings.TrimSpace(s[1:])
	return rest, rest != ""
}

func cutKeyword(s, kw string) (string, bool) {
	if len(s) <= len(kw) || !strings.EqualFold(s[:len(kw)], kw) || !strings.ContainsRune(" \t\r\n", rune(s[len(kw)])) {
		return "", false
	}
	return s[len(kw):], true
}

// metadataQuery reports whether query is a SELECT from one of DuckDB's
// metadata functions, and how many columns its select list has.
func metadataQuery(query string) (columns int, ok bool) {
	rest, ok := cutKeyword(strings.TrimSpace(query), "SELECT")
	if !ok {
		return 0, false
	}
	from := strings.Index(rest, " FROM duckdb_")
	if from < 0 {
		return 0, false
	}
	depth := 0
	columns = 1
	for _, r := range rest[:from] {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			columns++
		}
	}
	return columns, true
}

// constant reads one constant at the start of s: an integer that fits
// INTEGER, or a single-quoted string.
func constant(s string) (any, string, bool) {
	if strings.HasPrefix(s, "'") {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch {
			case s[i] != '\'':
				b.WriteByte(s[i])
			case i+1 < len(s) && s[i+1] == '\'':
				b.WriteByte('\'')
				i++
			default:
				return b.String(), s[i+1:], true
			}
		}
		return nil, "", false
	}
	end := strings.IndexAny(s, ", \t\r\n)")
	if end < 0 {
		end = len(s)
	}
	n, err := strconv.ParseInt(s[:end], 10, 32)
	if err != nil {
		return nil, "", false
	}
	return n, s[end:], true
}
