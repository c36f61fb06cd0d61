package functions

import (
	"slices"
	"strconv"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// Signature is how one of Mallard's table functions presents itself to
// clients that read the catalog (psql's \df, pg_get_functiondef): the
// arguments a caller gives, in the order they are declared, and the
// columns it returns. The hidden argument that carries the calling
// session is not among them.
type Signature struct {
	Name string
	// Args are the positional arguments, then the named ones.
	Args []Argument
	// Result are the output columns; nil when they depend on the call
	// (the source's columns, the model's time columns), which Postgres
	// calls SETOF record.
	Result []Column
}

// Argument is one argument of a Signature. Type is a PostgreSQL type name
// as format_type writes it; Default, empty for a required argument, is the
// SQL expression of the value an omitted argument takes, as PostgreSQL's
// pg_get_function_arguments writes it (NULL::text where the function
// decides by itself).
type Argument struct {
	Name, Type, Default string
}

// Column is one output column of a Signature: its name and PostgreSQL
// type name.
type Column struct {
	Name, Type string
}

// column is one declared output column of a table function.
type column struct {
	name string
	typ  pgType
}

// pgType is a PostgreSQL type name an argument or a column is shown as.
type pgType string

const (
	pgText      pgType = "text"
	pgTextArray pgType = "text[]"
	pgBigint    pgType = "bigint"
	pgDouble    pgType = "double precision"
	pgIntArray  pgType = "integer[]"
	pgBool      pgType = "boolean"
	pgAny       pgType = `"any"`
	pgAnyArray  pgType = "anyarray"
)

// pgType is the PostgreSQL type an argument of kind k is shown as: an id,
// which may be an integer or text, is "any".
func (k kind) pgType() pgType {
	return [...]pgType{pgText, pgTextArray, pgBigint, pgDouble, pgIntArray, pgBool, pgAny, pgAnyArray}[k]
}

// typeInfo is the DuckDB type of an output column of type t.
func (t pgType) typeInfo() duckdb.TypeInfo {
	switch t {
	case pgBigint:
		return bigintType()
	case pgDouble:
		return doubleType()
	case pgBool:
		return boolType()
	}
	return varcharType()
}

// columnInfos are the DuckDB columns of a declared result, which the bind
// step returns: the catalog then shows what the function returns.
func columnInfos(cols []column) []duckdb.ColumnInfo {
	out := make([]duckdb.ColumnInfo, len(cols))
	for i, c := range cols {
		out[i] = duckdb.ColumnInfo{Name: c.name, T: c.typ.typeInfo()}
	}
	return out
}

// catalogSignature is s as the catalog shows it.
func (s signature) catalogSignature() Signature {
	out := Signature{Name: s.fn}
	for _, p := range slices.Concat(s.positional, s.named) {
		out.Args = append(out.Args, Argument{Name: p.name, Type: string(p.kind.pgType()), Default: p.defaultSQL()})
	}
	for _, c := range s.result {
		out.Result = append(out.Result, Column{Name: c.name, Type: string(c.typ)})
	}
	return out
}

// defaultSQL is p's default as PostgreSQL writes a parameter's default
// expression: "" for a required argument, NULL::type for an optional one
// that has no fixed default.
func (p param) defaultSQL() string {
	if p.required {
		return ""
	}
	switch d := p.def.(type) {
	case string:
		return quote(d) + "::text"
	case int64:
		return strconv.FormatInt(d, 10)
	case float64:
		return strconv.FormatFloat(d, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(d)
	case []int:
		parts := make([]string, len(d))
		for i, n := range d {
			parts[i] = strconv.Itoa(n)
		}
		return "ARRAY[" + strings.Join(parts, ", ") + "]"
	case []string:
		parts := make([]string, len(d))
		for i, s := range d {
			parts[i] = quote(s) + "::text"
		}
		return "ARRAY[" + strings.Join(parts, ", ") + "]"
	}
	if t := p.kind.pgType(); t != pgAny && t != pgAnyArray {
		return "NULL::" + string(t)
	}
	return "NULL"
}
