package planner

import pg "github.com/pganalyze/pg_query_go/v6"

// qualifiedStar drops the schema (and database) from schema.table.*, which
// DuckDB's parser refuses and PostgREST sends in every query ("api"."todos".*).
// table.* names the same FROM item: a table's reference name is its own
// name, which Postgres lets only one item of a FROM clause have.
func (r *rewriter) qualifiedStar(n *pg.Node) {
	fields := n.GetColumnRef().GetFields()
	if len(fields) < 3 || fields[len(fields)-1].GetAStar() == nil {
		return
	}
	n.GetColumnRef().Fields = fields[len(fields)-2:]
	r.changed = true
}
