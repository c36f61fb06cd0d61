package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// CallerArgument is the hidden named argument through which Mallard's table
// functions learn which connection's statement called them; its value is
// the connection's id, read from the session variable of the same name.
const CallerArgument = "mallard_connection"

// passCaller adds `mallard_connection := getvariable('mallard_connection')`
// to every call of one of fns in text. It works on tokens, not on the parse
// tree, so that it also applies to DuckDB-dialect statements the Postgres
// parser rejects, and leaves the rest of the text as the client wrote it.
func passCaller(text string, fns map[string]bool) string {
	if len(fns) == 0 || !mentionsAny(text, fns) {
		return text
	}
	res, err := pg.Scan(text)
	if err != nil {
		return text
	}
	toks := res.Tokens
	var inserts []int // byte offsets of the closing parentheses, with a comma flag below
	var commas []bool
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.Token != pg.Token_IDENT || !fns[strings.ToLower(text[t.Start:t.End])] || toks[i+1].Token != pg.Token_ASCII_40 {
			continue
		}
		end, args, hasCaller := callEnd(text, toks, i+1)
		if end < 0 || hasCaller {
			continue
		}
		inserts, commas = append(inserts, end), append(commas, args)
	}
	for k := len(inserts) - 1; k >= 0; k-- {
		arg := CallerArgument + " := getvariable('" + CallerArgument + "')"
		if commas[k] {
			arg = ", " + arg
		}
		text = text[:inserts[k]] + arg + text[inserts[k]:]
	}
	return text
}

// callEnd finds the parenthesis closing the one at toks[open]: its byte
// offset, whether the call has arguments, and whether one of them already
// is the caller argument. The offset is -1 if the call is not closed.
func callEnd(text string, toks []*pg.ScanToken, open int) (end int, args, hasCaller bool) {
	depth := 0
	for _, t := range toks[open:] {
		switch t.Token {
		case pg.Token_ASCII_40, pg.Token_ASCII_91:
			depth++
		case pg.Token_ASCII_41, pg.Token_ASCII_93:
			depth--
			if depth == 0 {
				return int(t.Start), args, hasCaller
			}
		default:
			args = true
			if depth == 1 && t.Token == pg.Token_IDENT && strings.EqualFold(text[t.Start:t.End], CallerArgument) {
				hasCaller = true
			}
		}
	}
	return -1, false, false
}

func mentionsAny(text string, fns map[string]bool) bool {
	lower := strings.ToLower(text)
	for f := range fns {
		if strings.Contains(lower, f) {
			return true
		}
	}
	return false
}
