package storage

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqlstate"
)

// registrySchema is the schema of Mallard's model registry, which sessions
// may read but change only through Mallard's functions.
const registrySchema = "mlops"

// registryHint says how the registry changes.
const registryHint = "The registry changes only through Mallard's functions: mlops.drop(model[, version]) removes a model or a version, " +
	"mlops.deploy(model, version) and mlops.rollback(model) choose the version served, mlops.cancel(run_id) stops a training run."

// checkRegistryWrite fails with 42501 when query writes the registry: an
// INSERT, UPDATE, DELETE, MERGE, TRUNCATE or COPY FROM into a relation of
// schema mlops, or a CREATE, ALTER, DROP or COMMENT of one (or of the
// schema). A relation named without its schema counts when the session's
// current schema is mlops, or mlops is on its search path and holds a
// relation of that name.
func (c *Conn) checkRegistryWrite(ctx context.Context, query string) error {
	toks := scanSQL(query)
	c.notePath(toks)
	targets, verb := writeTarget(toks)
	for _, target := range targets {
		if err := c.checkTarget(ctx, target, verb); err != nil {
			return err
		}
	}
	return nil
}

// notePath records in c.mlopsPath whether the last statement on c that
// set its schema or search path (SET, RESET, USE) named mlops: only then
// can an unqualified name resolve into the registry, and only then does
// registryOnPath ask DuckDB, which costs a query.
func (c *Conn) notePath(toks []token) {
	if len(toks) == 0 || toks[0].kind != tokWord {
		return
	}
	switch toks[0].text {
	case "use":
	case "set", "reset":
		found := false
		for _, t := range toks[1:] {
			found = found || t.kind == tokWord && (t.text == "search_path" || t.text == "schema")
		}
		if !found {
			return
		}
	default:
		return
	}
	c.mlopsPath = false
	for _, t := range toks[1:] {
		if strings.Contains(strings.ToLower(t.text), registrySchema) {
			c.mlopsPath = true
		}
	}
}

// checkTarget is checkRegistryWrite of one relation (or schema) it writes.
func (c *Conn) checkTarget(ctx context.Context, target []string, verb string) error {
	switch len(target) {
	case 0:
		return nil
	case 1:
		if verb == "schema" {
			if target[0] != registrySchema {
				return nil
			}
		} else if !c.mlopsPath {
			return nil
		} else if on, err := c.registryOnPath(ctx, target[0], verb == "create"); err != nil || !on {
			return err
		}
	default:
		if target[len(target)-2] != registrySchema {
			return nil
		}
	}
	return sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied for %s: the registry schema %s is read-only to SQL sessions",
		strings.Join(target, "."), registrySchema).WithHint(registryHint)
}

// registryOnPath reports whether the unqualified name resolves into the
// registry on c: c's current schema is mlops, or (unless creating) mlops
// is on c's search path and holds a relation named name.
func (c *Conn) registryOnPath(ctx context.Context, name string, creating bool) (bool, error) {
	// system.main: the session's catalog shadows current_schema() with
	// Postgres' (NULL for DuckDB's main). An INTEGER, as a session's Arrow
	// settings may make a BOOLEAN an extension type.
	q := "SELECT CAST(coalesce(system.main.current_schema() = 'mlops' OR (" + boolText(!creating) +
		" AND regexp_matches(lower(system.main.current_setting('search_path')), '(^|[,.\"])mlops(\"|,|$)')" +
		" AND EXISTS (SELECT 1 FROM duckdb_tables() WHERE schema_name = 'mlops' AND table_name = " + literal(name) +
		" UNION ALL SELECT 1 FROM duckdb_views() WHERE schema_name = 'mlops' AND view_name = " + literal(name) + ")), true) AS INTEGER)"
	st, err := c.prepare(ctx, q, false)
	if err != nil {
		return true, fmt.Errorf("resolve %s on the search path: %w", name, err)
	}
	defer st.Close()
	rows, err := st.Query(ctx)
	if err != nil {
		return true, fmt.Errorf("resolve %s on the search path: %w", name, err)
	}
	defer rows.Close()
	if !rows.Next() {
		return true, fmt.Errorf("resolve %s on the search path: %w", name, rows.Err())
	}
	col, ok := rows.Batch().Column(0).(*array.Int32)
	if !ok || col.Len() == 0 {
		return true, fmt.Errorf("resolve %s on the search path: no answer", name)
	}
	return col.Value(0) != 0, nil
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// writeTarget returns the names (their parts, lower-cased) of the
// relations toks write and what writes them ("insert", "create", "schema"
// for a statement on a schema...), or nil.
func writeTarget(toks []token) ([][]string, string) {
	word := func(i int, ws ...string) bool {
		if i >= len(toks) || toks[i].kind != tokWord {
			return false
		}
		for _, w := range ws {
			if toks[i].text == w {
				return true
			}
		}
		return false
	}
	i := mainStatement(toks)
	if i >= len(toks) {
		return nil, ""
	}
	verb := toks[i].text
	i++
	switch verb {
	case "insert":
		for word(i, "or", "replace", "ignore") {
			i++
		}
		if word(i, "into") {
			i++
		}
	case "delete", "merge":
		if word(i, "from", "into") {
			i++
		}
	case "truncate":
		if word(i, "table") {
			i++
		}
	case "update":
	case "copy":
		if word(i, "from") || !copiesIn(toks, i) {
			return nil, ""
		}
	case "create", "alter", "drop", "comment":
		return objectTarget(toks, i, verb, word)
	default:
		return nil, ""
	}
	return [][]string{qualifiedName(toks, i)}, verb
}

// objectTarget is writeTarget's name of the object of a CREATE, ALTER,
// DROP or COMMENT ON whose words after the verb start at toks[i].
func objectTarget(toks []token, i int, verb string, word func(int, ...string) bool) ([][]string, string) {
	for word(i, "or", "replace", "temp", "temporary", "unique", "persistent", "on", "materialized", "column") {
		i++
	}
	if !word(i, "table", "view", "macro", "function", "sequence", "index", "schema", "type") {
		return nil, ""
	}
	kind := toks[i].text
	i++
	for word(i, "if", "not", "exists") {
		i++
	}
	if kind == "schema" {
		verb = "schema"
	}
	if kind == "index" && verb == "create" {
		for i < len(toks) && !word(i, "on") {
			i++
		}
		i++
	}
	var names [][]string
	for {
		name := qualifiedName(toks, i)
		names = append(names, name)
		i += 2*len(name) - 1
		if verb != "drop" || len(name) == 0 || i >= len(toks) || toks[i].text != "," {
			return names, verb
		}
		i++
	}
}

// mainStatement skips a WITH clause: the index of the statement's verb.
func mainStatement(toks []token) int {
	if len(toks) == 0 || toks[0].kind != tokWord || toks[0].text != "with" {
		return 0
	}
	depth := 0
	for i, t := range toks {
		switch {
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			depth--
		case depth == 0 && t.kind == tokWord && (t.text == "insert" || t.text == "update" || t.text == "delete" || t.text == "merge" || t.text == "select"):
			return i
		}
	}
	return len(toks)
}

// copiesIn reports whether the COPY whose words after COPY start at
// toks[i] loads a table (COPY t FROM ...).
func copiesIn(toks []token, i int) bool {
	if i < len(toks) && toks[i].kind == tokPunct {
		return false // COPY (query) TO
	}
	depth := 0
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			depth--
		case depth == 0 && t.kind == tokWord && (t.text == "from" || t.text == "to"):
			return t.text == "from"
		}
	}
	return false
}

// qualifiedName reads the dotted name at toks[i], lower-casing its
// unquoted parts.
func qualifiedName(toks []token, i int) []string {
	var parts []string
	for i < len(toks) && (toks[i].kind == tokWord || toks[i].kind == tokIdent) {
		parts = append(parts, strings.ToLower(toks[i].text))
		if i+1 >= len(toks) || toks[i+1].text != "." {
			break
		}
		i += 2
	}
	return parts
}
