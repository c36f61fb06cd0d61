package catalog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mallard/mallard/planner/catalog"
)

// builtinPairs compare facts that do not depend on the user's objects.
var builtinPairs = []samePair{
	{
		"pg_type built-in rows",
		`SELECT CAST(oid AS VARCHAR), typname, CAST(typnamespace AS VARCHAR), CAST(typlen AS VARCHAR),
			CAST(typbyval AS VARCHAR), typtype, typcategory, CAST(typelem AS VARCHAR), CAST(typarray AS VARCHAR),
			typinput, typoutput, typreceive, typsend, typalign, typstorage, CAST(typcollation AS VARCHAR),
			typdelim, typsubscript, CAST(typrelid AS VARCHAR), CAST(typbasetype AS VARCHAR), CAST(typtypmod AS VARCHAR)
		FROM mallard_catalog.pg.pg_type WHERE typnamespace = 11 ORDER BY oid`,
		`SELECT oid::text, typname::text, typnamespace::text, typlen::text, typbyval::text, typtype::text,
			typcategory::text, typelem::text, typarray::text, typinput::text, typoutput::text, typreceive::text,
			typsend::text, typalign::text, typstorage::text, typcollation::text, typdelim::text,
			typsubscript::text, typrelid::text, typbasetype::text, typtypmod::text
		FROM pg_type t WHERE typnamespace = 11 AND typrelid = 0
			AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.oid = t.typelem AND e.typrelid <> 0) ORDER BY t.oid`,
	},
	{
		"pg_am", `SELECT CAST(oid AS VARCHAR), amname, amhandler, amtype FROM mallard_catalog.pg.pg_am ORDER BY oid`,
		`SELECT oid::text, amname::text, amhandler::text, amtype::text FROM pg_am a ORDER BY a.oid`,
	},
	{
		"pg_collation",
		`SELECT CAST(oid AS VARCHAR), collname, collprovider, collcollate, collctype FROM mallard_catalog.pg.pg_collation ORDER BY oid`,
		`SELECT oid::text, collname::text, collprovider::text, collcollate, collctype FROM pg_collation c
		WHERE oid IN (100, 950, 951) ORDER BY c.oid`,
	},
	{
		"pg_tablespace", `SELECT CAST(oid AS VARCHAR), spcname FROM mallard_catalog.pg.pg_tablespace ORDER BY oid`,
		`SELECT oid::text, spcname::text FROM pg_tablespace s ORDER BY s.oid`,
	},
	{
		"pg_language",
		`SELECT CAST(oid AS VARCHAR), lanname, CAST(lanpltrusted AS VARCHAR), CAST(lanvalidator AS VARCHAR)
		FROM mallard_catalog.pg.pg_language ORDER BY oid`,
		`SELECT oid::text, lanname::text, lanpltrusted::text, lanvalidator::text FROM pg_language l
		WHERE lanname <> 'plpgsql' ORDER BY l.oid`,
	},
	{
		"pg_namespace",
		`SELECT CAST(oid AS VARCHAR), nspname FROM mallard_catalog.pg.pg_namespace ORDER BY oid`,
		`SELECT oid::text, nspname::text FROM pg_namespace n WHERE nspname NOT LIKE 'pg_toast%' ORDER BY n.oid`,
	},
	{
		"pg_database",
		`SELECT datname = current_database(), CAST(encoding AS VARCHAR), datlocprovider, datcollate, datctype,
			CAST(datallowconn AS VARCHAR), CAST(datistemplate AS VARCHAR), CAST(dattablespace AS VARCHAR),
			mallard_catalog.pg.pg_encoding_to_char(encoding)
		FROM mallard_catalog.pg.pg_database`,
		`SELECT datname = current_database(), encoding::text, datlocprovider::text, datcollate, datctype,
			datallowconn::text, datistemplate::text, dattablespace::text, pg_encoding_to_char(encoding)::text
		FROM pg_database WHERE datname = current_database()`,
	},
	{
		"pg_settings descriptions",
		`SELECT name, unit, category, short_desc, context, vartype, min_val, max_val,
			array_to_string(enumvals, ',')
		FROM mallard_catalog.pg.pg_settings WHERE category <> 'DuckDB' ORDER BY lower(name)`,
		`SELECT name, unit, category, short_desc, context, vartype, min_val, max_val, array_to_string(enumvals, ',')
		FROM pg_settings WHERE name IN (SELECT unnest($1::text[])) ORDER BY lower(name)`,
	},
	{
		"pg_get_keywords",
		`SELECT word, catcode, CAST(barelabel AS VARCHAR), catdesc, baredesc FROM mallard_catalog.pg.pg_get_keywords() ORDER BY word`,
		`SELECT word, catcode::text, barelabel::text, catdesc, baredesc FROM pg_get_keywords() ORDER BY word`,
	},
	{
		"quote_ident",
		`SELECT w, mallard_catalog.pg.quote_ident(w) FROM (SELECT word AS w FROM mallard_catalog.pg.pg_get_keywords()
			UNION ALL SELECT unnest(['abc', 'Abc', 'a b', 'a"b', '_x1', '1x', 'é', ''])) ORDER BY w`,
		`SELECT w, quote_ident(w) FROM (SELECT word AS w FROM pg_get_keywords()
			UNION ALL SELECT unnest(ARRAY['abc', 'Abc', 'a b', 'a"b', '_x1', '1x', 'é', ''])) s ORDER BY w COLLATE "C"`,
	},
	{
		"pg_size_pretty",
		`SELECT CAST(s AS VARCHAR), mallard_catalog.pg.pg_size_pretty(s) FROM (SELECT unnest(
			[0, 1, 10239, 10240, 10752, 20971519, 20971520, 123456789, 21474836480, 1234567890123456,
			 9223372036854775807, -1, -10240, -123456789]) AS s) ORDER BY s`,
		`SELECT s::text AS v, pg_size_pretty(s) FROM unnest(ARRAY[0, 1, 10239, 10240, 10752, 20971519, 20971520,
			123456789, 21474836480, 1234567890123456, 9223372036854775807, -1, -10240, -123456789]::bigint[]) s ORDER BY s`,
	},
}

// TestBuiltinsMatchPostgres compares the static facts with PostgreSQL 15.
func TestBuiltinsMatchPostgres(t *testing.T) {
	pg := pgSession(t)
	_, conn := session(t)
	var settings []string
	for _, r := range rows(t, conn, `SELECT name FROM mallard_catalog.pg.pg_settings WHERE category <> 'DuckDB'`) {
		settings = append(settings, r[0])
	}
	for _, p := range builtinPairs {
		t.Run(strings.ReplaceAll(p.name, " ", "_"), func(t *testing.T) {
			var args []any
			if strings.Contains(p.postgres, "$1") {
				args = append(args, settings)
			}
			diffRows(t, p.name, rows(t, conn, p.mallard), pgRows(t, pg, p.postgres, args...))
		})
	}
}

// TestCatalogRelationOIDs checks that Mallard's catalog relations have
// PostgreSQL's OIDs: 'pg_class'::regclass is 1259 on both.
func TestCatalogRelationOIDs(t *testing.T) {
	pg := pgSession(t)
	_, conn := session(t)
	for schema, names := range map[string][]string{"pg_catalog": catalog.Views(), "information_schema": catalog.InfoViews()} {
		for _, name := range names {
			q := schema + "." + name
			got := rows(t, conn, "SELECT CAST(mallard_catalog.pg.mallard_regclass(?) AS VARCHAR)", q)
			want := pgRows(t, pg, "SELECT $1::regclass::oid::text", q)
			diffRows(t, q, got, want)
		}
	}
}

// TestFormatTypeMatchesPostgres compares format_type, regtype input and
// regtype output over the built-in types, with and without modifiers.
func TestFormatTypeMatchesPostgres(t *testing.T) {
	pg := pgSession(t)
	_, conn := session(t)
	typmods := []string{"NULL", "-1", "3", "14", "655366", "1310724"}
	oids := pgRows(t, pg, `SELECT oid::text FROM pg_type t WHERE typnamespace = 11 AND typrelid = 0
		AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.oid = t.typelem AND e.typrelid <> 0)
		AND typname NOT IN ('interval', '_interval') ORDER BY oid`)
	list := "999999"
	for _, o := range oids {
		list += ", " + o[0]
	}
	for _, m := range typmods {
		got := rows(t, conn, fmt.Sprintf(`SELECT CAST(o AS VARCHAR), mallard_catalog.pg.format_type(o, %s)
			FROM (SELECT unnest([%s]) AS o) ORDER BY o`, m, list))
		want := pgRows(t, pg, fmt.Sprintf(`SELECT o::text AS t, format_type(o, %s)
			FROM unnest(ARRAY[%s]::oid[]) o ORDER BY o`, m, list))
		diffRows(t, "format_type(oid, "+m+")", got, want)
	}
	for _, spelling := range []string{
		"integer", "int", "INT4", "smallint", "bigint", "real", "double precision", "float", "float8",
		"boolean", "bool", "text", "character varying", "varchar(10)", "character varying(255)[]",
		"character", "char(3)", `"char"`, "bpchar", "numeric", "numeric(10,2)", "decimal", "date",
		"time", "time without time zone", "time with time zone", "timetz", "timestamp",
		"timestamp(3) without time zone", "timestamp with time zone", "timestamptz", "interval",
		"bytea", "uuid", "json", "jsonb", "oid", "regclass", "int4[]", "integer[]", "text[]",
		"pg_catalog.int8", "bit varying", "varbit", "name", "record", "void", "unknown",
	} {
		got := rows(t, conn, "SELECT CAST(mallard_catalog.pg.mallard_regtype(?) AS VARCHAR)", spelling)
		want := pgRows(t, pg, "SELECT $1::regtype::oid::text", spelling)
		diffRows(t, "regtype "+spelling, got, want)
		got = rows(t, conn, "SELECT mallard_catalog.pg.mallard_regtype_name(mallard_catalog.pg.mallard_regtype(?))", spelling)
		want = pgRows(t, pg, "SELECT $1::regtype::text", spelling)
		diffRows(t, "regtype name "+spelling, got, want)
	}
}
