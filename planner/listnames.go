package planner

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/mallard/mallard/planner/plan"
)

// nameListColumns names the select-list columns of a statement that the
// Postgres parser rejects only for DuckDB's list literals or for a keyword
// naming an argument, such as SELECT count(*) FROM pivot_entity_time('t',
// time := ['year']): count(*) is "count" there too, where DuckDB would say
// "count_star()". The statement is parsed with each list literal read as a
// row constructor of the same length and each such keyword as an
// identifier, so that the positions of its select list are those of
// the client's text, into which the names are spliced; nothing else of it
// is rewritten. An entry that is itself a list keeps DuckDB's name.
func (p *Planner) nameListColumns(st *plan.Statement) {
	masked, ok := maskLists(st.Text)
	if !ok {
		return
	}
	tree, err := pg.Parse(masked)
	if err != nil || len(tree.Stmts) != 1 {
		return
	}
	r := rewriter{p: p}
	r.nameColumns(tree.Stmts[0].Stmt)
	var aliases []alias
	for _, a := range r.aliases {
		if a.written || masked[a.loc] != '(' || st.Text[a.loc] != '[' {
			aliases = append(aliases, a)
		}
	}
	if len(aliases) == 0 {
		return
	}
	if text, ok := spliceAliases(st.Text, aliases); ok {
		st.Text = text
	}
}

// maskLists returns text with the brackets of each DuckDB list literal
// ([1, 2], not the subscript x[1]) turned into parentheses and each keyword
// that names an argument (time := ..., which Postgres reserves) into an
// identifier of its length, and whether it changed anything.
func maskLists(text string) (string, bool) {
	res, err := pg.Scan(text)
	if err != nil {
		return "", false
	}
	b := []byte(text)
	var open []bool // for each open bracket, whether it starts a list
	found := false
	for i, t := range res.Tokens {
		if t.KeywordKind != pg.KeywordKind_NO_KEYWORD && i+1 < len(res.Tokens) &&
			(res.Tokens[i+1].Token == pg.Token_COLON_EQUALS || res.Tokens[i+1].Token == pg.Token_EQUALS_GREATER) {
			for k := t.Start; k < t.End; k++ {
				b[k] = 'x'
			}
			found = true
		}
		switch t.Token {
		case pg.Token_ASCII_91:
			list := i == 0 || startsList[res.Tokens[i-1].Token]
			if list {
				b[t.Start], found = '(', true
			}
			open = append(open, list)
		case pg.Token_ASCII_93:
			if len(open) == 0 {
				return "", false
			}
			if open[len(open)-1] {
				b[t.Start] = ')'
			}
			open = open[:len(open)-1]
		}
	}
	return string(b), found
}

// startsList are the tokens after which a [ opens a list, not a subscript.
var startsList = map[pg.Token]bool{
	pg.Token_ASCII_40: true, pg.Token_ASCII_44: true, pg.Token_ASCII_61: true, pg.Token_ASCII_91: true,
	pg.Token_Op: true, pg.Token_COLON_EQUALS: true, pg.Token_EQUALS_GREATER: true, pg.Token_SELECT: true,
	pg.Token_IN_P: true, pg.Token_THEN: true, pg.Token_ELSE: true, pg.Token_WHEN: true, pg.Token_AND: true,
	pg.Token_OR: true, pg.Token_NOT: true,
}
