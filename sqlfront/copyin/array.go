package copyin

import "github.com/mallard/mallard/sqltype"

// listText turns a Postgres array in text form ({a,"b c",NULL}), as COPY
// and pg_dump write it, into the text DuckDB casts to a list ([a,"b c",NULL])
// when the column is a list; braces inside double-quoted elements stay.
// Other values, and arrays of more than one dimension, are returned as
// they are.
func listText(t sqltype.Type, f []byte) []byte {
	if t.ID != sqltype.List && t.ID != sqltype.Array || len(f) < 2 || f[0] != '{' || f[len(f)-1] != '}' {
		return f
	}
	out := make([]byte, len(f))
	copy(out, f)
	quoted, depth := false, 0
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '{':
			if depth++; depth > 1 {
				return f
			}
			out[i] = '['
		case c == '}':
			depth--
			out[i] = ']'
		}
	}
	return out
}

// pgText turns a COPY text value of a Postgres array into the text DuckDB
// reads as the column's type (see listText). A bytea's text, hex or escape
// form, needs nothing: storage reads a string as a BLOB as Postgres does.
func pgText(t sqltype.Type, f []byte) []byte {
	return listText(t, f)
}
