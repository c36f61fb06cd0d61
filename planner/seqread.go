package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// sequenceColumns are the columns of a Postgres sequence read as a
// relation, as DuckDB's duckdb_sequences() gives them: a sequence never
// used has no last value in DuckDB, and Postgres shows its start then,
// not yet called. DuckDB caches nothing, so log_cnt is 0.
var sequenceColumns = map[string]string{
	"last_value": "COALESCE(last_value, start_value) AS last_value",
	"is_called":  "last_value IS NOT NULL AS is_called",
	"log_cnt":    "CAST(0 AS BIGINT) AS log_cnt",
}

// sequenceRead rewrites SELECT last_value, is_called FROM seq, which is how
// pg_dump reads a sequence's state: a Postgres sequence is a one-row
// relation, a DuckDB one is not, so the statement reads the sequence's row
// of duckdb_sequences() instead. Only a select list of sequenceColumns
// over one relation, with no other clause, is rewritten; a table with such
// columns read that way is taken for a sequence. It reports whether it
// changed sel.
func sequenceRead(sel *pg.SelectStmt) bool {
	if len(sel.FromClause) != 1 || sel.WhereClause != nil || len(sel.GroupClause) > 0 || sel.Larg != nil ||
		len(sel.SortClause) > 0 || sel.LimitCount != nil || len(sel.TargetList) == 0 {
		return false
	}
	rv := sel.FromClause[0].GetRangeVar()
	if rv == nil || rv.Alias != nil || rv.Catalogname != "" {
		return false
	}
	cols := make([]string, 0, len(sel.TargetList))
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		ref := rt.GetVal().GetColumnRef()
		if rt.Name != "" || ref == nil || len(ref.Fields) != 1 || ref.Fields[0].GetString_() == nil {
			return false
		}
		col, ok := sequenceColumns[ref.Fields[0].GetString_().Sval]
		if !ok {
			return false
		}
		cols = append(cols, col)
	}
	schema := "current_schema()"
	if rv.Schemaname != "" {
		schema = quoteLiteral(rv.Schemaname)
	}
	text := "SELECT " + strings.Join(cols, ", ") + " FROM duckdb_sequences() WHERE database_name = current_database()" +
		" AND schema_name = " + schema + " AND sequence_name = " + quoteLiteral(rv.Relname)
	tree, err := pg.Parse(text)
	if err != nil {
		return false
	}
	*sel = *tree.Stmts[0].Stmt.GetSelectStmt()
	return true
}

// partitionAncestorsInSelect rewrites SELECT pg_partition_ancestors(x),
// the set-returning call in a select list that psql's \d sends for a table
// with foreign keys, to SELECT relid FROM pg_partition_ancestors(x): the
// catalog's pg_partition_ancestors is a table macro, which DuckDB calls
// only in a FROM clause. It reports whether it changed anything below n.
func partitionAncestorsInSelect(n *pg.Node) bool {
	changed := false
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		children(m, walk)
		sel, ok := m.Interface().(*pg.SelectStmt)
		if !ok || len(sel.FromClause) > 0 || len(sel.TargetList) != 1 {
			return
		}
		rt := sel.TargetList[0].GetResTarget()
		fc := rt.GetVal().GetFuncCall()
		if fc == nil || lastName(fc.Funcname) != "pg_partition_ancestors" {
			return
		}
		tree, err := pg.Parse("SELECT relid FROM pg_partition_ancestors(0)")
		if err != nil {
			return
		}
		from := tree.Stmts[0].Stmt.GetSelectStmt()
		from.FromClause[0].GetRangeFunction().Functions[0].GetList().Items[0] = rt.Val
		sel.FromClause, sel.TargetList = from.FromClause, from.TargetList
		changed = true
	}
	walk(n.ProtoReflect())
	return changed
}
