package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// unicodeEscapes reports whether text holds a U&'...' string or U&"..."
// identifier, which DuckDB does not read: the statement is then deparsed,
// which writes them with their escapes decoded.
func unicodeEscapes(text string) bool {
	if !strings.Contains(text, "U&") && !strings.Contains(text, "u&") {
		return false
	}
	res, err := pg.Scan(text)
	if err != nil {
		return false
	}
	for _, t := range res.Tokens {
		if t.Token == pg.Token_USCONST || t.Token == pg.Token_UIDENT {
			return true
		}
	}
	return false
}
