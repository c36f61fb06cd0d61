package catalog_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// moreDDL adds to sampleDDL what only Mallard's side checks: an enum, a
// sequence behind a default, comments, a second schema, quoted names, and
// objects that must stay hidden (DuckDB's main schema, another database).
var moreDDL = []string{
	`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`,
	`CREATE SEQUENCE order_seq START 100`,
	`CREATE TABLE orders (id bigint DEFAULT nextval('order_seq') PRIMARY KEY, m mood, "Weird Col" text)`,
	`COMMENT ON VIEW parent_v IS 'parent codes'`,
	`COMMENT ON COLUMN orders.m IS 'how it went'`,
	`CREATE SCHEMA sales`,
	`CREATE TABLE sales.region (id integer PRIMARY KEY, name text)`,
	`CREATE TABLE main.hidden_in_main (x integer)`,
	`ATTACH ':memory:' AS other`,
	`CREATE TABLE other.main.hidden_elsewhere (x integer)`,
}

// sampleCases are facts about sampleDDL and moreDDL that Mallard's catalog
// must state; want holds the rows, each value as rows formats it.
var sampleCases = []struct {
	name, query string
	want        [][]string
}{
	{"namespaces", `SELECT oid = 2200, nspname FROM mallard_catalog.pg.pg_namespace ORDER BY nspname`,
		[][]string{{"f", "information_schema"}, {"f", "pg_catalog"}, {"t", "public"}, {"f", "sales"}}},
	{"hidden relations", `SELECT count(*) FROM mallard_catalog.pg.pg_class
		WHERE relname IN ('hidden_in_main', 'hidden_elsewhere')`, [][]string{{"0"}}},
	{"relations of public", `SELECT relname, relkind FROM mallard_catalog.pg.pg_class
		WHERE relnamespace = 2200 ORDER BY relname`,
		[][]string{{"child", "r"}, {"child_pkey", "i"}, {"child_ts_idx", "i"}, {"order_seq", "S"},
			{"orders", "r"}, {"orders_pkey", "i"}, {"parent", "r"}, {"parent_code_key", "i"},
			{"parent_pkey", "i"}, {"parent_v", "v"}}},
	{"catalog relations", `SELECT oid, relname, relnamespace, relkind FROM mallard_catalog.pg.pg_class
		WHERE relname IN ('pg_class', 'pg_type', 'tables') ORDER BY oid`,
		[][]string{{"1247", "pg_type", "11", "r"}, {"1259", "pg_class", "11", "r"}, {"13425", "tables", "13207", "v"}}},
	{"catalog columns", `SELECT attname, atttypid FROM mallard_catalog.pg.pg_attribute
		WHERE attrelid = 1259 AND attnum <= 3 ORDER BY attnum`,
		[][]string{{"oid", "20"}, {"relname", "19"}, {"relnamespace", "20"}}},
	{"enum type", `SELECT t.typname, t.typtype, t.typcategory, t.typnamespace, t.typlen,
			array_to_string(list(e.enumlabel ORDER BY e.enumsortorder), ',')
		FROM mallard_catalog.pg.pg_type t JOIN mallard_catalog.pg.pg_enum e ON e.enumtypid = t.oid
		GROUP BY ALL`, [][]string{{"mood", "e", "E", "2200", "4", "sad,ok,happy"}}},
	{"enum column presented as text", `SELECT atttypid, mallard_catalog.pg.format_type(atttypid, atttypmod)
		FROM mallard_catalog.pg.pg_attribute
		WHERE attrelid = mallard_catalog.pg.mallard_regclass('orders') AND attname = 'm'`, [][]string{{"25", "text"}}},
	{"defaults", `SELECT c.relname, d.adnum, mallard_catalog.pg.pg_get_expr(d.adbin, d.adrelid)
		FROM mallard_catalog.pg.pg_attrdef d JOIN mallard_catalog.pg.pg_class c ON c.oid = d.adrelid ORDER BY 1`,
		[][]string{{"orders", "1", "nextval('order_seq'::regclass)"}, {"parent", "3", "0"}}},
	{"serial sequence", `SELECT mallard_catalog.pg.pg_get_serial_sequence('orders', 'id'),
			mallard_catalog.pg.pg_get_serial_sequence('public.orders', 'm')`,
		[][]string{{"public.order_seq", "NULL"}}},
	{"sequences", `SELECT s.seqstart, s.seqincrement, q.sequencename, i.start_value, i.data_type
		FROM mallard_catalog.pg.pg_sequence s, mallard_catalog.pg.pg_sequences q, mallard_catalog.info.sequences i`,
		[][]string{{"100", "1", "order_seq", "100", "bigint"}}},
	{"descriptions", `SELECT c.relname, d.objsubid, d.description
		FROM mallard_catalog.pg.pg_description d JOIN mallard_catalog.pg.pg_class c ON c.oid = d.objoid
		WHERE d.classoid = 1259 ORDER BY 1, 2`,
		[][]string{{"orders", "2", "how it went"}, {"parent", "0", "parents"}, {"parent", "4", "free text"},
			{"parent_v", "0", "parent codes"}}},
	{"view definition", `SELECT mallard_catalog.pg.pg_get_viewdef(mallard_catalog.pg.mallard_regclass('parent_v')),
			definition FROM mallard_catalog.pg.pg_views WHERE viewname = 'parent_v'`,
		[][]string{{" SELECT id, code FROM parent;", " SELECT id, code FROM parent;"}}},
	{"quoted names", `SELECT mallard_catalog.pg.mallard_regclass_name(mallard_catalog.pg.mallard_regclass('sales.region')),
			mallard_catalog.pg.mallard_regclass('"orders"') = mallard_catalog.pg.mallard_regclass('ORDERS'),
			mallard_catalog.pg.quote_ident(attname)
		FROM mallard_catalog.pg.pg_attribute WHERE attname = 'Weird Col'`,
		[][]string{{"sales.region", "t", `"Weird Col"`}}},
	{"visibility", `SELECT c.relname, mallard_catalog.pg.pg_table_is_visible(c.oid)
		FROM mallard_catalog.pg.pg_class c WHERE c.relname IN ('region', 'parent', 'pg_class') ORDER BY 1`,
		[][]string{{"parent", "t"}, {"pg_class", "t"}, {"region", "f"}}},
	{"regnamespace", `SELECT mallard_catalog.pg.mallard_regnamespace('sales') =
			(SELECT oid FROM mallard_catalog.pg.pg_namespace WHERE nspname = 'sales'),
			mallard_catalog.pg.mallard_regnamespace_name(11), mallard_catalog.pg.mallard_regrole_name(10),
			mallard_catalog.pg.mallard_regproc_name(mallard_catalog.pg.mallard_regproc('format_type'))`,
		[][]string{{"t", "pg_catalog", "mallard", "format_type"}}},
	{"session functions", `SELECT mallard_catalog.pg.version() LIKE 'PostgreSQL 15.0 (Mallard %, DuckDB v%) on %',
			mallard_catalog.pg.current_database() = current_database(), mallard_catalog.pg.current_schema(),
			mallard_catalog.pg.current_schemas(true), mallard_catalog.pg.current_schemas(false),
			mallard_catalog.pg.current_user(), mallard_catalog.pg.session_user(), mallard_catalog.pg.pg_get_userbyid(10),
			mallard_catalog.pg.pg_get_userbyid(99)`,
		[][]string{{"t", "t", "public", "{pg_catalog,public}", "{public}", "mallard", "mallard", "mallard", "unknown (OID=99)"}}},
	{"database", `SELECT datname = current_database(), encoding, datcollate, datdba,
			mallard_catalog.pg.pg_encoding_to_char(encoding), mallard_catalog.pg.has_database_privilege(datname, 'CONNECT')
		FROM mallard_catalog.pg.pg_database`, [][]string{{"t", "6", "C.UTF-8", "10", "UTF8", "t"}}},
	{"roles", `SELECT r.rolname, r.oid, r.rolsuper, u.usename, u.usesysid
		FROM mallard_catalog.pg.pg_roles r, mallard_catalog.pg.pg_user u`,
		[][]string{{"mallard", "10", "t", "mallard", "10"}}},
	{"settings", `SELECT name, setting FROM mallard_catalog.pg.pg_settings WHERE name IN ('server_version_num',
			'server_encoding', 'DateStyle', 'max_identifier_length', 'integer_datetimes', 'default_transaction_isolation')
		ORDER BY lower(name)`,
		[][]string{{"DateStyle", "ISO, MDY"}, {"default_transaction_isolation", "repeatable read"},
			{"integer_datetimes", "on"}, {"max_identifier_length", "63"}, {"server_encoding", "UTF8"},
			{"server_version_num", "150000"}}},
	{"DuckDB settings", `SELECT category, vartype FROM mallard_catalog.pg.pg_settings WHERE name = 'threads'`,
		[][]string{{"DuckDB", "integer"}}},
	{"one session", `SELECT count(*), min(datname) = current_database(), min(state), min(usename)
		FROM mallard_catalog.pg.pg_stat_activity`, [][]string{{"1", "t", "active", "mallard"}}},
	{"table statistics", `SELECT relname, n_live_tup FROM mallard_catalog.pg.pg_stat_user_tables ORDER BY 1`,
		[][]string{{"child", "0"}, {"orders", "0"}, {"parent", "0"}, {"region", "0"}}},
	{"schemata", `SELECT schema_name, schema_owner FROM mallard_catalog.info.schemata ORDER BY 1`,
		[][]string{{"information_schema", "mallard"}, {"pg_catalog", "mallard"}, {"public", "mallard"}, {"sales", "mallard"}}},
	{"privileges", `SELECT mallard_catalog.pg.has_table_privilege('parent', 'SELECT'),
			mallard_catalog.pg.has_table_privilege('mallard', 'parent', 'INSERT'),
			mallard_catalog.pg.has_schema_privilege('public', 'USAGE'),
			mallard_catalog.pg.has_column_privilege('parent', 'id', 'SELECT'),
			mallard_catalog.pg.pg_has_role('mallard', 'MEMBER')`, [][]string{{"t", "t", "t", "t", "t"}}},
	{"expandarray", `SELECT (mallard_catalog.info._pg_expandarray(indkey)).x, (mallard_catalog.info._pg_expandarray(indkey)).n
		FROM mallard_catalog.pg.pg_index WHERE indexrelid = mallard_catalog.pg.mallard_regclass('child_ts_idx')`,
		[][]string{{"3", "1"}, {"5", "2"}}},
	{"index keys in SQL", `SELECT a.attname FROM mallard_catalog.pg.pg_index i
		JOIN mallard_catalog.pg.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
		WHERE i.indexrelid = mallard_catalog.pg.mallard_regclass('child_ts_idx') ORDER BY a.attnum`,
		[][]string{{"ts"}, {"d"}}},
	{"array bounds", `SELECT mallard_catalog.pg.array_upper([4, 5, 6], 1), mallard_catalog.pg.array_lower([4, 5, 6], 1),
			mallard_catalog.pg.array_upper([], 1)`, [][]string{{"3", "1", "NULL"}}},
	{"vectors print as PostgreSQL's", `SELECT CAST(indkey AS VARCHAR), CAST(indoption AS VARCHAR), CAST(indclass AS VARCHAR),
			typeof(indkey), typeof(indclass)
		FROM mallard_catalog.pg.pg_index WHERE indexrelid = mallard_catalog.pg.mallard_regclass('child_ts_idx')`,
		[][]string{{"3 5", "0 0", "0 0", "pg_int2vector_elem[]", "pg_oidvector_elem[]"}}},
	{"vector subscripts start at 0", `SELECT indkey[0 + 1 - mallard_catalog.pg.mallard_first_subscript(indkey)],
			mallard_catalog.pg.array_lower(indkey, 1), mallard_catalog.pg.array_upper(indkey, 1),
			mallard_catalog.pg.array_upper(CAST(indkey AS SMALLINT[]), 1), mallard_catalog.pg.pg_typeof(indkey)
		FROM mallard_catalog.pg.pg_index WHERE indexrelid = mallard_catalog.pg.mallard_regclass('child_ts_idx')`,
		[][]string{{"3", "0", "1", "2", "int2vector"}}},
	{"vectors read from text", `SELECT CAST(CAST(' 7  -32768 ' AS pg_int2vector_elem[]) AS VARCHAR),
			CAST(CAST('4294967295 0' AS pg_oidvector_elem[]) AS VARCHAR), len(CAST('' AS pg_int2vector_elem[])),
			TRY_CAST('1 x' AS pg_int2vector_elem[]), TRY_CAST('32768' AS pg_int2vector_elem[]), TRY_CAST('-1' AS pg_oidvector_elem[]),
			CAST(CAST(NULL AS VARCHAR) AS pg_int2vector_elem[])`,
		[][]string{{"7 -32768", "4294967295 0", "0", "NULL", "NULL", "NULL", "NULL"}}},
	{"vector casts round-trip over many chunks", `SELECT count(*), count(DISTINCT v), min(v),
			count(*) FILTER (WHERE CAST(CAST(v AS pg_int2vector_elem[]) AS VARCHAR) = v)
		FROM (SELECT CAST(CAST(list_transform(range(i % 4), x -> CAST(x - 1 AS SMALLINT)) AS pg_int2vector_elem[]) AS VARCHAR) AS v
			FROM range(5000) AS t(i))`,
		[][]string{{"5000", "4", "", "5000"}}},
	{"pg_typeof", `SELECT mallard_catalog.pg.pg_typeof(1), mallard_catalog.pg.pg_typeof(CAST(1 AS BIGINT)),
			mallard_catalog.pg.pg_typeof('a'), mallard_catalog.pg.pg_typeof([1.5])`,
		[][]string{{"integer", "bigint", "text", "numeric[]"}}},
	{"quote_literal", `SELECT mallard_catalog.pg.quote_literal('it''s'), mallard_catalog.pg.quote_literal('a\b')`,
		[][]string{{"'it''s'", `E'a\\b'`}}},
	{"functions", `SELECT DISTINCT prokind, mallard_catalog.pg.pg_get_function_arguments(oid),
			mallard_catalog.pg.pg_get_function_result(oid)
		FROM mallard_catalog.pg.pg_proc WHERE proname = 'abs' AND proargtypes = '23'`,
		[][]string{{"f", "x integer", "integer"}}},
	{"aggregates and window functions", `SELECT proname, min(prokind) FROM mallard_catalog.pg.pg_proc
		WHERE proname IN ('sum', 'row_number') GROUP BY 1 ORDER BY 1`, [][]string{{"row_number", "w"}, {"sum", "a"}}},
}

func TestSampleCatalog(t *testing.T) {
	_, conn := session(t, append(append([]string{}, sampleDDL...), moreDDL...)...)
	for _, tc := range sampleCases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			got := rows(t, conn, tc.query)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestUnknownNamesFail checks that casting an unknown name fails as
// PostgreSQL's does, naming the relation, type or schema.
func TestUnknownNamesFail(t *testing.T) {
	_, conn := session(t)
	for _, tc := range []struct{ query, want string }{
		{"SELECT mallard_catalog.pg.mallard_regclass('nope')", `relation "nope" does not exist`},
		{"SELECT mallard_catalog.pg.mallard_regclass('public.pg_class')", `relation "public.pg_class" does not exist`},
		{"SELECT mallard_catalog.pg.mallard_regtype('nope[]')", `type "nope[]" does not exist`},
		{"SELECT mallard_catalog.pg.mallard_regnamespace('nope')", `schema "nope" does not exist`},
		{"SELECT mallard_catalog.pg.mallard_regproc('nope')", `function "nope" does not exist`},
		{"SELECT mallard_catalog.pg.mallard_regrole('nope')", `role "nope" does not exist`},
	} {
		_, err := conn.QueryContext(context.Background(), tc.query)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want one saying %s", tc.query, err, tc.want)
		}
	}
}

// TestSessionVariables checks that the server can describe the session to
// the catalog through DuckDB variables.
func TestSessionVariables(t *testing.T) {
	_, conn := session(t,
		"SET VARIABLE mallard_user = 'bob'",
		"SET VARIABLE mallard_backend_pid = 4242",
		"SET VARIABLE mallard_application_name = 'psql'")
	got := rows(t, conn, `SELECT mallard_catalog.pg.current_user(), mallard_catalog.pg.pg_backend_pid(),
		(SELECT rolname FROM mallard_catalog.pg.pg_roles), (SELECT pid || application_name FROM mallard_catalog.pg.pg_stat_activity),
		(SELECT setting FROM mallard_catalog.pg.pg_settings WHERE name = 'application_name')`)
	want := [][]string{{"bob", "4242", "bob", "4242psql", "psql"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
