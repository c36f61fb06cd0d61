package storage

import "strings"

// tokenKind is what a token of DuckDB's SQL is, as far as the file guard
// (pathguard.go) and the registry guard (registryguard.go) need to know.
type tokenKind int

const (
	tokWord   tokenKind = iota // a keyword or an unquoted identifier, lower-cased
	tokString                  // a string constant; text is its value
	tokIdent                   // a double-quoted identifier; text is its value
	tokParam                   // $1, $name or ?; text is its number ("" for a name)
	tokOpaque                  // a string constant whose value the scanner does not decode (E'\...', U&'...')
	tokPunct                   // one character of punctuation, or "::"
	tokNumber
)

// token is one token of a statement.
type token struct {
	kind tokenKind
	text string
}

// scanSQL splits query into tokens, dropping comments and whitespace.
// Adjacent string constants are joined, as DuckDB's parser joins 'a'
// followed on the next line by 'b'. It never fails: text it cannot read
// becomes punctuation, which no rule of the guards takes for a path.
func scanSQL(query string) []token {
	var toks []token
	positional := 0
	for i := 0; i < len(query); {
		c := query[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(query[i:], "--"):
			i = skipPast(query, i, "\n")
		case strings.HasPrefix(query[i:], "/*"):
			i = skipPast(query, i+2, "*/")
		case c == '\'':
			v, end := quoted(query, i, '\'')
			toks, i = appendString(toks, token{tokString, v}), end
		case (c == 'e' || c == 'E') && i+1 < len(query) && query[i+1] == '\'':
			v, end := quoted(query, i+1, '\'')
			kind := tokString
			if strings.Contains(v, `\`) {
				kind = tokOpaque
			}
			toks, i = appendString(toks, token{kind, v}), end
		case (c == 'u' || c == 'U') && strings.HasPrefix(query[i+1:], "&'"):
			_, end := quoted(query, i+2, '\'')
			toks, i = append(toks, token{tokOpaque, ""}), end
		case c == '"':
			v, end := quoted(query, i, '"')
			toks, i = append(toks, token{tokIdent, v}), end
		case c == '$':
			t, end := dollar(query, i, &positional)
			if t.kind == tokString {
				toks = appendString(toks, t)
			} else {
				toks = append(toks, t)
			}
			i = end
		case c == '?':
			positional++
			toks, i = append(toks, token{tokParam, itoa(positional)}), i+1
		case isWordByte(c) && !(c >= '0' && c <= '9'):
			j := i
			for j < len(query) && isWordByte(query[j]) {
				j++
			}
			toks, i = append(toks, token{tokWord, strings.ToLower(query[i:j])}), j
		case c >= '0' && c <= '9':
			j := i
			for j < len(query) && (isWordByte(query[j]) || query[j] == '.') {
				j++
			}
			toks, i = append(toks, token{tokNumber, query[i:j]}), j
		case c == ':' && strings.HasPrefix(query[i:], "::"):
			toks, i = append(toks, token{tokPunct, "::"}), i+2
		default:
			toks, i = append(toks, token{tokPunct, query[i : i+1]}), i+1
		}
	}
	return toks
}

// appendString appends t, joining it to a string constant just before it.
func appendString(toks []token, t token) []token {
	if n := len(toks); n > 0 && t.kind == tokString && toks[n-1].kind == tokString {
		toks[n-1].text += t.text
		return toks
	}
	if n := len(toks); n > 0 && (t.kind == tokString || t.kind == tokOpaque) && (toks[n-1].kind == tokString || toks[n-1].kind == tokOpaque) {
		toks[n-1] = token{tokOpaque, ""}
		return toks
	}
	return append(toks, t)
}

func skipPast(s string, i int, end string) int {
	if j := strings.Index(s[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(s)
}

// quoted reads the constant quoted with q that starts at s[i], a doubled
// quote standing for one; it returns the value and the index past it.
func quoted(s string, i int, q byte) (string, int) {
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		if s[j] != q {
			b.WriteByte(s[j])
			continue
		}
		if j+1 < len(s) && s[j+1] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return b.String(), j + 1
	}
	return b.String(), len(s)
}

// dollar reads what starts with $ at s[i]: a parameter $1 or $name, or a
// dollar-quoted string $tag$...$tag$.
func dollar(s string, i int, positional *int) (token, int) {
	j := i + 1
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	if j < len(s) && s[j] == '$' && (j == i+1 || !(s[i+1] >= '0' && s[i+1] <= '9')) {
		tag := s[i : j+1]
		end := strings.Index(s[j+1:], tag)
		if end < 0 {
			return token{tokString, s[j+1:]}, len(s)
		}
		return token{tokString, s[j+1 : j+1+end]}, j + 1 + end + len(tag)
	}
	name := s[i+1 : j]
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		return token{tokParam, strings.TrimLeft(name, "0")}, j
	}
	return token{tokParam, ""}, j
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
