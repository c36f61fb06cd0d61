package planner

import (
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// alias is a column name to give the select-list entry starting at loc.
type alias struct {
	loc  int
	name string
}

// spliceAliases writes `AS "name"` after each aliased select-list entry of
// text, leaving the rest of the text, and so DuckDB's error positions,
// exactly as the client wrote it. It returns false if the entries' ends
// cannot be found.
func spliceAliases(text string, aliases []alias) (string, bool) {
	res, err := pg.Scan(text)
	if err != nil {
		return "", false
	}
	toks := res.Tokens
	ends := make([]int, len(aliases))
	for i, a := range aliases {
		end := entryEnd(toks, a.loc)
		if end < 0 {
			return "", false
		}
		ends[i] = end
	}
	order := make([]int, len(aliases))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return ends[order[x]] > ends[order[y]] })
	for _, i := range order {
		text = text[:ends[i]] + " AS " + quoteIdent(aliases[i].name) + text[ends[i]:]
	}
	return text, true
}

// entryEnd is the byte offset just past the select-list entry that starts
// at loc: the end of its last token before a comma, a closing parenthesis
// or a reserved keyword (FROM, WHERE, ORDER, ...) at its own nesting level.
func entryEnd(toks []*pg.ScanToken, loc int) int {
	depth, end := 0, -1
	for _, t := range toks {
		if int(t.Start) < loc {
			continue
		}
		switch {
		case t.Token == pg.Token_ASCII_40 || t.Token == pg.Token_ASCII_91:
			depth++
		case t.Token == pg.Token_ASCII_41 || t.Token == pg.Token_ASCII_93:
			if depth == 0 {
				return end
			}
			depth--
		case depth == 0 && (t.Token == pg.Token_ASCII_44 || t.Token == pg.Token_ASCII_59):
			return end
		case depth == 0 && t.KeywordKind == pg.KeywordKind_RESERVED_KEYWORD && endsSelectList(t.Token) && end >= 0:
			return end
		}
		if t.Token != pg.Token_SQL_COMMENT && t.Token != pg.Token_C_COMMENT {
			end = int(t.End)
		}
	}
	return end
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
