package catalog_test

import (
	"strings"
	"testing"
)

// samePair is one fact asked of both databases about sampleDDL's objects:
// mallard is the query against Mallard's catalog (the planner's rewriting of
// postgres done by hand), postgres the query against PostgreSQL 15. Both
// select text.
type samePair struct {
	name, mallard, postgres string
}

var samplePairs = []samePair{
	{
		"pg_attribute",
		`SELECT c.relname, a.attname, CAST(a.attnum AS VARCHAR), CAST(a.atttypid AS VARCHAR),
			CAST(a.atttypmod AS VARCHAR), CAST(a.attnotnull AS VARCHAR), CAST(a.atthasdef AS VARCHAR),
			CAST(a.attlen AS VARCHAR), CAST(a.attndims AS VARCHAR), CAST(a.attcollation AS VARCHAR)
		FROM mallard_catalog.pg.pg_attribute a JOIN mallard_catalog.pg.pg_class c ON c.oid = a.attrelid
		JOIN mallard_catalog.pg.pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND a.attnum > 0 ORDER BY 1, a.attnum`,
		`SELECT c.relname::text, a.attname::text, a.attnum::text, a.atttypid::text, a.atttypmod::text,
			a.attnotnull::text, a.atthasdef::text, a.attlen::text, a.attndims::text, a.attcollation::text
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, a.attnum`,
	},
	{
		"pg_class",
		`SELECT c.relname, c.relkind, CAST(c.relnatts AS VARCHAR), CAST(c.relchecks AS VARCHAR),
			CAST(c.relhasindex AS VARCHAR), CAST(c.relam AS VARCHAR), a.amname,
			CAST(c.relowner AS VARCHAR), c.relpersistence, CAST(c.relispartition AS VARCHAR)
		FROM mallard_catalog.pg.pg_class c JOIN mallard_catalog.pg.pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN mallard_catalog.pg.pg_am a ON a.oid = c.relam
		WHERE n.nspname = 'public' ORDER BY 1`,
		`SELECT c.relname::text, c.relkind::text, c.relnatts::text, c.relchecks::text,
			c.relhasindex::text, c.relam::text, a.amname::text, c.relowner::text, c.relpersistence::text,
			c.relispartition::text
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_am a ON a.oid = c.relam
		WHERE n.nspname = 'public' AND c.relkind <> 'c' ORDER BY 1`,
	},
	{
		"pg_index",
		`SELECT ci.relname, ct.relname, CAST(i.indisprimary AS VARCHAR), CAST(i.indisunique AS VARCHAR),
			CAST(i.indnatts AS VARCHAR), CAST(i.indkey AS VARCHAR), CAST(i.indoption AS VARCHAR),
			mallard_catalog.pg.pg_get_indexdef(i.indexrelid), mallard_catalog.pg.pg_get_indexdef(i.indexrelid, 1, false)
		FROM mallard_catalog.pg.pg_index i JOIN mallard_catalog.pg.pg_class ci ON ci.oid = i.indexrelid
		JOIN mallard_catalog.pg.pg_class ct ON ct.oid = i.indrelid ORDER BY 1`,
		`SELECT ci.relname::text, ct.relname::text, i.indisprimary::text, i.indisunique::text,
			i.indnatts::text, i.indkey::text, i.indoption::text,
			pg_get_indexdef(i.indexrelid), pg_get_indexdef(i.indexrelid, 1, false)
		FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid JOIN pg_class ct ON ct.oid = i.indrelid
		JOIN pg_namespace n ON n.oid = ct.relnamespace WHERE n.nspname = 'public' ORDER BY 1`,
	},
	{
		"pg_constraint",
		`SELECT c.conname, c.contype, t.relname, array_to_string(c.conkey, ','),
			COALESCE(array_to_string(c.confkey, ','), ''), COALESCE(f.relname, ''), COALESCE(i.relname, ''),
			CASE WHEN c.contype = 'c' THEN '' ELSE mallard_catalog.pg.pg_get_constraintdef(c.oid) END,
			c.confupdtype, c.confdeltype, c.confmatchtype
		FROM mallard_catalog.pg.pg_constraint c JOIN mallard_catalog.pg.pg_class t ON t.oid = c.conrelid
		LEFT JOIN mallard_catalog.pg.pg_class f ON f.oid = c.confrelid
		LEFT JOIN mallard_catalog.pg.pg_class i ON i.oid = c.conindid ORDER BY 1`,
		`SELECT c.conname::text, c.contype::text, t.relname::text, array_to_string(c.conkey, ','),
			COALESCE(array_to_string(c.confkey, ','), ''), COALESCE(f.relname::text, ''), COALESCE(i.relname::text, ''),
			CASE WHEN c.contype = 'c' THEN '' ELSE pg_get_constraintdef(c.oid) END,
			c.confupdtype::text, c.confdeltype::text, c.confmatchtype::text
		FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid LEFT JOIN pg_class f ON f.oid = c.confrelid
		LEFT JOIN pg_class i ON i.oid = c.conindid
		JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public' ORDER BY 1`,
	},
	{
		"format_type of columns",
		`SELECT a.attname, mallard_catalog.pg.format_type(a.atttypid, a.atttypmod)
		FROM mallard_catalog.pg.pg_attribute a WHERE a.attrelid = mallard_catalog.pg.mallard_regclass('child') ORDER BY a.attnum`,
		`SELECT a.attname::text, format_type(a.atttypid, a.atttypmod)
		FROM pg_attribute a WHERE a.attrelid = 'child'::regclass AND a.attnum > 0 ORDER BY a.attnum`,
	},
	{
		"comments",
		`SELECT mallard_catalog.pg.obj_description(mallard_catalog.pg.mallard_regclass('parent'), 'pg_class'),
			mallard_catalog.pg.col_description(mallard_catalog.pg.mallard_regclass('parent'), 4),
			mallard_catalog.pg.col_description(mallard_catalog.pg.mallard_regclass('parent'), 1)`,
		`SELECT obj_description('parent'::regclass, 'pg_class'), col_description('parent'::regclass, 4),
			col_description('parent'::regclass, 1)`,
	},
	{
		"information_schema.tables",
		`SELECT table_schema, table_name, table_type, is_insertable_into FROM mallard_catalog.info.tables
		WHERE table_schema = 'public' ORDER BY 2`,
		// DuckDB's views cannot be written through; PostgreSQL's simple views can.
		`SELECT table_schema::text, table_name::text, table_type::text,
			CASE table_type WHEN 'VIEW' THEN 'NO' ELSE is_insertable_into::text END
		FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 2`,
	},
	{
		"information_schema.columns",
		`SELECT table_name, column_name, CAST(ordinal_position AS VARCHAR), data_type, udt_name, is_nullable,
			CAST(numeric_precision AS VARCHAR), CAST(numeric_precision_radix AS VARCHAR),
			CAST(numeric_scale AS VARCHAR), CAST(datetime_precision AS VARCHAR),
			CAST(character_octet_length AS VARCHAR), udt_schema, is_updatable
		FROM mallard_catalog.info.columns WHERE table_schema = 'public' ORDER BY 1, 3`,
		`SELECT table_name::text, column_name::text, ordinal_position::text, data_type::text, udt_name::text,
			is_nullable::text, numeric_precision::text, numeric_precision_radix::text, numeric_scale::text,
			datetime_precision::text, character_octet_length::text, udt_schema::text,
			CASE table_name WHEN 'parent_v' THEN 'NO' ELSE is_updatable::text END
		FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 3`,
	},
	{
		"information_schema.table_constraints",
		`SELECT table_name, constraint_name, constraint_type, is_deferrable, nulls_distinct
		FROM mallard_catalog.info.table_constraints
		WHERE table_schema = 'public' AND constraint_name NOT LIKE '%_not_null' ORDER BY 2`,
		`SELECT table_name::text, constraint_name::text, constraint_type::text, is_deferrable::text, nulls_distinct::text
		FROM information_schema.table_constraints
		WHERE table_schema = 'public' AND constraint_name NOT LIKE '%_not_null' ORDER BY 2`,
	},
	{
		"NOT NULL constraints",
		`SELECT table_name, count(*) FROM mallard_catalog.info.table_constraints
		WHERE table_schema = 'public' AND constraint_name LIKE '%_not_null' AND constraint_type = 'CHECK' GROUP BY 1 ORDER BY 1`,
		`SELECT table_name::text, count(*)::text FROM information_schema.table_constraints
		WHERE table_schema = 'public' AND constraint_name LIKE '%_not_null' AND constraint_type = 'CHECK' GROUP BY 1 ORDER BY 1`,
	},
	{
		"information_schema.key_column_usage",
		`SELECT constraint_name, table_name, column_name, CAST(ordinal_position AS VARCHAR),
			CAST(position_in_unique_constraint AS VARCHAR)
		FROM mallard_catalog.info.key_column_usage WHERE table_schema = 'public' ORDER BY 1, 4`,
		`SELECT constraint_name::text, table_name::text, column_name::text, ordinal_position::text,
			position_in_unique_constraint::text
		FROM information_schema.key_column_usage WHERE table_schema = 'public' ORDER BY 1, 4`,
	},
	{
		"information_schema.referential_constraints",
		`SELECT constraint_name, unique_constraint_name, match_option, update_rule, delete_rule
		FROM mallard_catalog.info.referential_constraints WHERE constraint_schema = 'public' ORDER BY 1`,
		`SELECT constraint_name::text, unique_constraint_name::text, match_option::text, update_rule::text, delete_rule::text
		FROM information_schema.referential_constraints WHERE constraint_schema = 'public' ORDER BY 1`,
	},
	{
		"information_schema.constraint_column_usage",
		`SELECT constraint_name, table_name, column_name FROM mallard_catalog.info.constraint_column_usage
		WHERE table_schema = 'public' ORDER BY 1, 3`,
		`SELECT constraint_name::text, table_name::text, column_name::text FROM information_schema.constraint_column_usage
		WHERE table_schema = 'public' ORDER BY 1, 3`,
	},
	{
		"information_schema.views",
		`SELECT table_name, check_option, is_updatable FROM mallard_catalog.info.views WHERE table_schema = 'public'`,
		`SELECT table_name::text, check_option::text, 'NO' FROM information_schema.views WHERE table_schema = 'public'`,
	},
	{
		"psql \\dt",
		`SELECT n.nspname, c.relname,
			CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' END,
			CAST(mallard_catalog.pg.pg_get_userbyid(c.relowner) = mallard_catalog.pg.current_user() AS VARCHAR)
		FROM mallard_catalog.pg.pg_class c LEFT JOIN mallard_catalog.pg.pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'v', 'i', '') AND n.nspname <> 'pg_catalog'
			AND NOT regexp_matches(n.nspname, '^pg_toast')
			AND n.nspname <> 'information_schema' AND mallard_catalog.pg.pg_table_is_visible(c.oid)
		ORDER BY 1, 2`,
		`SELECT n.nspname::text, c.relname::text,
			CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' END,
			(pg_get_userbyid(c.relowner) = current_user)::text
		FROM pg_class c LEFT JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'v', 'i', '') AND n.nspname <> 'pg_catalog' AND n.nspname !~ '^pg_toast'
			AND n.nspname <> 'information_schema' AND pg_table_is_visible(c.oid)
		ORDER BY 1, 2`,
	},
}

// TestSampleMatchesPostgres runs sampleDDL on Mallard and on PostgreSQL 15
// and checks that their catalogs tell the same facts about it.
func TestSampleMatchesPostgres(t *testing.T) {
	pg := pgSession(t, sampleDDL...)
	_, conn := session(t, sampleDDL...)
	for _, p := range samplePairs {
		t.Run(strings.ReplaceAll(p.name, " ", "_"), func(t *testing.T) {
			diffRows(t, p.name, rows(t, conn, p.mallard), pgRows(t, pg, p.postgres))
		})
	}
}
