package catalog

import (
	"fmt"
	"strings"

	"github.com/mallard/mallard/planner/plan"
)

// Signatures returns the statements that show each of sigs in the catalog
// with its declared arguments, defaults and result (rows of
// mallard_signatures; see 04_mallard_signatures.sql). They run after
// Statements, because they use its macros. A signature whose types
// PostgreSQL does not know fails there with 'type "name" does not exist'.
func Signatures(sigs []plan.Signature) []string {
	stmts := make([]string, len(sigs))
	for i, s := range sigs {
		stmts[i] = signatureStatement(s)
	}
	return stmts
}

// signatureStatement inserts the row of s: its arguments are the rows of
// a(i, name, typ, def) and its result columns those of r(i, name, typ),
// numbered after the arguments as pg_proc numbers them.
func signatureStatement(s plan.Signature) string {
	var args, result []string
	for i, a := range s.Args {
		def := "CAST(NULL AS VARCHAR)"
		if a.Default != "" {
			def = literal(a.Default)
		}
		args = append(args, fmt.Sprintf("(%d, %s, %s, %s)", i+1, literal(a.Name), literal(a.Type), def))
	}
	for i, c := range s.Result {
		result = append(result, fmt.Sprintf("(%d, %s, %s)", len(s.Args)+i+1, literal(c.Name), literal(c.Type)))
	}
	a := "SELECT 0 AS i, '' AS name, '' AS typ, CAST(NULL AS VARCHAR) AS def WHERE false"
	if len(args) > 0 {
		a = "VALUES " + strings.Join(args, ", ")
	}
	r := "SELECT 0 AS i, '' AS name, '' AS typ WHERE false"
	if len(result) > 0 {
		r = "VALUES " + strings.Join(result, ", ")
	}
	return `INSERT OR REPLACE INTO ` + Database + `.` + PGSchema + `.mallard_signatures
WITH a(i, name, typ, def) AS (` + a + `),
    r(i, name, typ) AS (` + r + `),
    io AS (SELECT i, name, typ, 'i' AS mode FROM a UNION ALL SELECT i, name, typ, 't' FROM r)
SELECT ` + literal(s.Name) + `,
    COALESCE((SELECT string_agg(mallard_catalog.pg.quote_ident(name) || ' ' || typ || COALESCE(' DEFAULT ' || def, ''), ', ' ORDER BY i) FROM a), ''),
    COALESCE((SELECT string_agg(mallard_catalog.pg.quote_ident(name) || ' ' || typ, ', ' ORDER BY i) FROM a), ''),
    COALESCE((SELECT 'TABLE(' || string_agg(mallard_catalog.pg.quote_ident(name) || ' ' || typ, ', ' ORDER BY i) || ')' FROM r), 'SETOF record'),
    COALESCE((SELECT list(mallard_catalog.pg.mallard_regtype(typ) ORDER BY i) FROM a), CAST([] AS BIGINT[])),
    (SELECT list(name ORDER BY i) FROM io),
    CASE WHEN EXISTS (SELECT 1 FROM r) THEN (SELECT list(mallard_catalog.pg.mallard_regtype(typ) ORDER BY i) FROM io) END,
    CASE WHEN EXISTS (SELECT 1 FROM r) THEN (SELECT list(mode ORDER BY i) FROM io) END,
    (SELECT count(def) FROM a)`
}

// literal is s as a SQL string literal.
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
