package catalog_test

import (
	"testing"

	"github.com/mallard/mallard/planner/catalog"
)

// duckTypes maps the PostgreSQL type of a catalog column (as format_type
// spells it) to the DuckDB type Mallard's column has. OIDs are BIGINT, as in
// DuckDB's own catalog; names, "char" codes and information_schema's
// character data of the VARCHAR aliases storage registers for those types;
// regproc text; int2vector and oidvector lists of the element aliases
// storage registers for them; except where columnTypeExceptions says
// otherwise.
var duckTypes = map[string]string{
	"oid": "BIGINT", "name": "pg_name", "text": "VARCHAR", `"char"`: "pg_char", "regproc": "VARCHAR",
	"regtype": "VARCHAR", "pg_node_tree": "VARCHAR", "inet": "VARCHAR", "pg_lsn": "VARCHAR",
	"smallint": "SMALLINT", "integer": "INTEGER", "bigint": "BIGINT", "real": "FLOAT",
	"double precision": "DOUBLE", "boolean": "BOOLEAN", "xid": "BIGINT",
	"timestamp with time zone": "TIMESTAMP WITH TIME ZONE", "interval": "INTERVAL",
	"aclitem[]": "VARCHAR[]", "text[]": "VARCHAR[]", "name[]": "pg_name[]", `"char"[]`: "pg_char[]",
	"regtype[]": "VARCHAR[]", "oid[]": "BIGINT[]", "smallint[]": "SMALLINT[]", "real[]": "FLOAT[]",
	"int2vector": "pg_int2vector_elem[]", "oidvector": "pg_oidvector_elem[]", "bytea": "BLOB", "anyarray": "VARCHAR",
	"information_schema.sql_identifier": "pg_name", "information_schema.character_data": "pg_varchar",
	"information_schema.yes_or_no": "pg_varchar", "information_schema.cardinal_number": "INTEGER",
	"information_schema.time_stamp": "TIMESTAMP WITH TIME ZONE",
}

// columnTypeExceptions are the catalog columns whose DuckDB type is not the
// one duckTypes gives for their PostgreSQL type, and why. There are none.
var columnTypeExceptions = map[string]string{}

// TestViewColumnsMatchPostgres checks every catalog view against the
// PostgreSQL 15 relation of the same name: the same columns in the same
// order, each of the DuckDB type that stands for PostgreSQL's.
func TestViewColumnsMatchPostgres(t *testing.T) {
	pg := pgSession(t)
	_, conn := session(t)
	check := func(pgSchema, duckSchema string, views []string) {
		for _, view := range views {
			want := pgRows(t, pg, `
				SELECT a.attname::text, format_type(a.atttypid, a.atttypmod)
				FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
				JOIN pg_namespace n ON n.oid = c.relnamespace
				WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped
				ORDER BY a.attnum`, pgSchema, view)
			if len(want) == 0 {
				t.Errorf("%s.%s: PostgreSQL 15 has no such relation", pgSchema, view)
				continue
			}
			for _, w := range want {
				key := pgSchema + "." + view + "." + w[0]
				if ex, ok := columnTypeExceptions[key]; ok {
					w[1] = ex
				} else if d, ok := duckTypes[w[1]]; ok {
					w[1] = d
				} else {
					t.Errorf("%s: no DuckDB type for PostgreSQL type %s", key, w[1])
				}
			}
			got := rows(t, conn, `
				SELECT column_name, data_type FROM duckdb_columns()
				WHERE database_name = 'mallard_catalog' AND schema_name = ? AND table_name = ?
				ORDER BY column_index`, duckSchema, view)
			diffRows(t, pgSchema+"."+view, got, want)
		}
	}
	check("pg_catalog", catalog.PGSchema, catalog.Views())
	check("information_schema", catalog.InfoSchema, catalog.InfoViews())
}
