package planner

import (
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// alias is a column name for the select-list entry starting at loc.
// written is set when the client wrote the alias itself, unquoted or
// quoted; it is then the entry's last token.
type alias struct {
	loc     int
	name    string
	written bool
}

// spliceAliases writes `AS "name"` after each select-list entry of text
// that has no alias, and folds written aliases to the name Postgres reads
// (Total as total, which keeps their length), leaving the rest of the
// text, and so DuckDB's error positions, exactly as the client wrote it.
// It returns false if the entries' ends cannot be found.
func spliceAliases(text string, aliases []alias) (string, bool) {
	res, err := pg.Scan(text)
	if err != nil {
		return "", false
	}
	toks := res.Tokens
	starts, ends := make([]int, len(aliases)), make([]int, len(aliases))
	for i, a := range aliases {
		starts[i], ends[i] = entryEnd(toks, a.loc)
		if ends[i] < 0 {
			return "", false
		}
	}
	order := make([]int, len(aliases))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return ends[order[x]] > ends[order[y]] })
	for _, i := range order {
		start, end, a := starts[i], ends[i], aliases[i]
		switch {
		case !a.written:
			text = text[:end] + " AS " + quoteIdent(a.name) + text[end:]
		case text[start] != '"' && len(text[start:end]) == len(a.name) && strings.EqualFold(text[start:end], a.name):
			text = text[:start] + a.name + text[end:]
		}
	}
	return text, true
}

// entryEnd returns the byte offsets of the last token of the select-list
// entry that starts at loc: its last token before a comma, a closing
// parenthesis or a reserved keyword (FROM, WHERE, ORDER, ...) at its own
// nesting level; end is -1 if there is none. The GROUP of an aggregate's
// WITHIN GROUP (ORDER BY ...) is part of the entry.
func entryEnd(toks []*pg.ScanToken, loc int) (start, end int) {
	depth, start, end := 0, -1, -1
	prev := pg.Token_NUL
	for _, t := range toks {
		if int(t.Start) < loc {
			continue
		}
		within := prev == pg.Token_WITHIN
		prev = t.Token
		switch {
		case within && t.Token == pg.Token_GROUP_P:
		case t.Token == pg.Token_ASCII_40 || t.Token == pg.Token_ASCII_91:
			depth++
		case t.Token == pg.Token_ASCII_41 || t.Token == pg.Token_ASCII_93:
			if depth == 0 {
				return start, end
			}
			depth--
		case depth == 0 && (t.Token == pg.Token_ASCII_44 || t.Token == pg.Token_ASCII_59):
			return start, end
		case depth == 0 && t.KeywordKind == pg.KeywordKind_RESERVED_KEYWORD && endsSelectList(t.Token) && end >= 0:
			return start, end
		}
		if t.Token != pg.Token_SQL_COMMENT && t.Token != pg.Token_C_COMMENT {
			start, end = int(t.Start), int(t.End)
		}
	}
	return start, end
}

func endsSelectList(t pg.Token) bool {
	switch t {
	case pg.Token_FROM, pg.Token_WHERE, pg.Token_GROUP_P, pg.Token_HAVING, pg.Token_WINDOW, pg.Token_ORDER,
		pg.Token_LIMIT, pg.Token_OFFSET, pg.Token_UNION, pg.Token_INTERSECT, pg.Token_EXCEPT,
		pg.Token_FETCH, pg.Token_FOR, pg.Token_INTO:
		return true
	}
	return false
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
