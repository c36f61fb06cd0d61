package planner

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// scannedTypeNames are the parser's names of the types a client most often
// casts a parameter to, by the name written (see scanParamCasts).
var scannedTypeNames = map[string]string{
	"int": "int4", "integer": "int4", "int4": "int4", "bigint": "int8", "int8": "int8",
	"smallint": "int2", "int2": "int2", "real": "float4", "float4": "float4", "float": "float8",
	"float8": "float8", "double": "float8", "numeric": "numeric", "decimal": "numeric",
	"boolean": "bool", "bool": "bool", "text": "text", "varchar": "varchar", "date": "date",
	"timestamp": "timestamp", "timestamptz": "timestamptz", "uuid": "uuid", "json": "json", "jsonb": "jsonb",
}

// scanParamCasts finds the casts $n::type in text that the Postgres parser
// cannot read (DuckDB's dialect, or a Mallard call with an argument named
// like a reserved word, such as window := 4), token by token: what
// plan.Statement.ParamCasts holds for a statement it can read.
func scanParamCasts(text string) []string {
	res, err := pg.Scan(text)
	if err != nil {
		return nil
	}
	var casts []string
	toks := res.Tokens
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].Token != pg.Token_PARAM || toks[i+1].Token != pg.Token_TYPECAST {
			continue
		}
		n, err := strconv.Atoi(text[toks[i].Start+1 : toks[i].End])
		name, ok := scannedTypeNames[strings.ToLower(text[toks[i+2].Start:toks[i+2].End])]
		if err != nil || !ok || n < 1 || n > 65535 {
			continue
		}
		if i+4 < len(toks) && toks[i+3].Token == pg.Token_ASCII_91 && toks[i+4].Token == pg.Token_ASCII_93 {
			name += "[]"
		}
		for len(casts) < n {
			casts = append(casts, "")
		}
		casts[n-1] = name
	}
	return casts
}
