package sqlfront

import "github.com/mallard/mallard/storage"

// listText turns a Postgres array in text form ({a,"b c",NULL}), as COPY
// and pg_dump write it, into the text DuckDB casts to a list ([a,"b c",NULL])
// when the column is a list; braces inside double-quoted elements stay.
// Other values, and arrays of more than one dimension, are returned as
// they are.
func listText(t storage.Type, f []byte) []byte {
	if t.ID != storage.TypeList && t.ID != storage.TypeArray || len(f) < 2 || f[0] != '{' || f[len(f)-1] != '}' {
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

// pgBlobText turns a bytea in Postgres' hex text form (\xdeadbeef), as COPY
// and pg_dump write it, into DuckDB's escaped form (\xDE\xAD\xBE\xEF),
// which DuckDB's BLOB cast reads; DuckDB would read the hex form as one
// escaped byte followed by literal characters.
func pgBlobText(t storage.Type, f []byte) []byte {
	if t.ID != storage.TypeBlob || len(f) < 2 || f[0] != '\\' || f[1] != 'x' || len(f)%2 != 0 {
		return f
	}
	hex := f[2:]
	out := make([]byte, 0, len(hex)*2)
	for i := 0; i+1 < len(hex); i += 2 {
		if digitValue(hex[i]) < 0 || digitValue(hex[i]) > 15 || digitValue(hex[i+1]) < 0 || digitValue(hex[i+1]) > 15 {
			return f
		}
		out = append(out, '\\', 'x', hex[i], hex[i+1])
	}
	return out
}

// pgText turns a COPY text value of a Postgres array or bytea into the
// text DuckDB reads as the column's type (see listText and pgBlobText).
func pgText(t storage.Type, f []byte) []byte {
	return pgBlobText(t, listText(t, f))
}
