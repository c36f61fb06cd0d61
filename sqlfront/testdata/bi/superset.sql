-- Queries Apache Superset sends to a PostgreSQL database: what SQLAlchemy's
-- psycopg2 dialect runs on first connect, the Inspector reflection that
-- fills the dataset editor and SQL Lab's schema browser, and the engine
-- spec's own statements. Superset pins SQLAlchemy 1.4; these follow the
-- statements SQLAlchemy 1.4.46 (Debian's python3-sqlalchemy) sent to a
-- PostgreSQL 15 with log_statement=all, where the dialect binds a table's
-- oid as a literal; here a subquery on pg_class stands in for it.
-- Format: see bi_test.go.

-- superset: psycopg2 dialect's first-connect probe for the hstore extension type. Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/psycopg2.py (on_connect, HstoreAdapter lookup); observed in a PostgreSQL statement log
-- columns: oid, typarray
SELECT t.oid, typarray
  FROM pg_type t JOIN pg_namespace ns ON typnamespace = ns.oid
 WHERE typname = 'hstore'

-- superset: dialect initialize reads the server version string and parses "PostgreSQL 15.x" from column 1. Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (_get_server_version_info)
select pg_catalog.version()

-- superset: dialect initialize reads the default schema from column 1. Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (_get_default_schema_name)
select current_schema()

-- superset: dialect initialize reads the isolation level from column 1. Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_isolation_level)
show transaction isolation level

-- superset: dialect initialize checks whether backslashes escape in strings (column 1 'on'/'off'). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (_set_backslash_escapes)
show standard_conforming_strings

-- superset: "Test connection" pings through the dialect's do_ping. Source: apache/superset superset/commands/database/test_connection.py; sqlalchemy/sqlalchemy lib/sqlalchemy/engine/default.py (do_ping)
SELECT 1

-- superset: catalog (database) list. Source: apache/superset superset/db_engine_specs/postgres.py (get_catalog_names)
-- columns: datname
SELECT datname FROM pg_database
WHERE datistemplate = false;

-- superset: schema list for SQL Lab and the dataset editor (Inspector.get_schema_names). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_schema_names, 1.4)
-- columns: nspname
-- contains: public
SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_%' ORDER BY nspname

-- superset: table list of a schema (Inspector.get_table_names, relkinds r and p). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (_get_relnames_for_relkinds, 1.4); apache/superset superset/db_engine_specs/postgres.py (get_table_names)
-- columns: relname
-- contains: customers, orders
SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind in ('r', 'p')

-- superset: view list of a schema (Inspector.get_view_names). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_view_names, 1.4)
-- columns: relname
-- contains: order_totals
SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('v', 'm')

-- superset: the table's oid before reflecting it (get_table_oid). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_table_oid, 1.4)
-- columns: oid
SELECT c.oid
  FROM pg_catalog.pg_class c
  LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 WHERE (n.nspname = 'public')
   AND c.relname = 'orders' AND c.relkind in ('r', 'v', 'm', 'f', 'p')

-- superset: column reflection (Inspector.get_columns): format_type, a correlated pg_attrdef subquery labelled DEFAULT, attgenerated, and identity options built with json_build_object over pg_sequence and pg_get_serial_sequence(...)::regclass::oid. Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_columns, 1.4)
-- columns: attname, format_type, default, attnotnull, table_oid, comment, generated, identity_options
-- contains: id, customer_id, total, integer, order total in euros
SELECT a.attname,
       pg_catalog.format_type(a.atttypid, a.atttypmod),
       (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid)
          FROM pg_catalog.pg_attrdef d
         WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef) AS DEFAULT,
       a.attnotnull,
       a.attrelid as table_oid,
       pgd.description as comment,
       a.attgenerated as generated,
       (SELECT json_build_object('always', a.attidentity = 'a', 'start', s.seqstart, 'increment', s.seqincrement,
                                 'minvalue', s.seqmin, 'maxvalue', s.seqmax, 'cache', s.seqcache, 'cycle', s.seqcycle)
          FROM pg_catalog.pg_sequence s
          JOIN pg_catalog.pg_class c on s.seqrelid = c."oid"
         WHERE c.relkind = 'S'
           AND a.attidentity != ''
           AND s.seqrelid = pg_catalog.pg_get_serial_sequence(a.attrelid::regclass::text, a.attname)::regclass::oid
       ) as identity_options
  FROM pg_catalog.pg_attribute a
  LEFT JOIN pg_catalog.pg_description pgd ON (pgd.objoid = a.attrelid AND pgd.objsubid = a.attnum)
 WHERE a.attrelid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'orders')
   AND a.attnum > 0 AND NOT a.attisdropped
 ORDER BY a.attnum

-- superset: enum types, loaded with every column reflection. Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (_load_enums, 1.4)
-- columns: name, visible, schema, label
SELECT t.typname as "name",
       pg_catalog.pg_type_is_visible(t.oid) as "visible",
       n.nspname as "schema",
       e.enumlabel as "label"
  FROM pg_catalog.pg_type t
  LEFT JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
  LEFT JOIN pg_catalog.pg_enum e ON t.oid = e.enumtypid
 WHERE t.typtype = 'e'
 ORDER BY "schema", "name", e.oid

-- superset: primary key columns in key order (get_pk_constraint): unnest and generate_subscripts over the int2vector indkey. Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_pk_constraint, 1.4)
-- columns: attname
-- contains: id
SELECT a.attname
  FROM pg_attribute a
  JOIN (SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord
          FROM pg_index ix
         WHERE ix.indrelid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'orders') AND ix.indisprimary) k
    ON a.attnum = k.attnum
 WHERE a.attrelid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'orders')
 ORDER BY k.ord

-- superset: foreign keys as constraint definitions, which SQLAlchemy then parses (get_foreign_keys): pg_get_constraintdef(oid, true). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_foreign_keys, 1.4)
-- columns: conname, condef, conschema
SELECT r.conname,
       pg_catalog.pg_get_constraintdef(r.oid, true) as condef,
       n.nspname as conschema
  FROM pg_catalog.pg_constraint r, pg_namespace n, pg_class c
 WHERE r.conrelid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'orders')
   AND r.contype = 'f' AND c.oid = confrelid AND n.oid = c.relnamespace
 ORDER BY 1

-- superset: index reflection (get_indexes): int2vector and oidvector cast to varchar, pg_am, reloptions, indnkeyatts, = ANY(indkey). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_indexes, 1.4)
-- columns: relname, indisunique, indexprs, attname, attnum, conrelid, indkey, indoption, reloptions, amname, indnkeyatts
-- contains: ordered_at
SELECT i.relname as relname,
       ix.indisunique, ix.indexprs,
       a.attname, a.attnum, c.conrelid, ix.indkey::varchar,
       ix.indoption::varchar, i.reloptions, am.amname,
       pg_get_expr(ix.indpred, ix.indrelid),
       ix.indnkeyatts as indnkeyatts
  FROM pg_class t
  join pg_index ix on t.oid = ix.indrelid
  join pg_class i on i.oid = ix.indexrelid
  left outer join pg_attribute a on t.oid = a.attrelid and a.attnum = ANY(ix.indkey)
  left outer join pg_constraint c on (ix.indrelid = c.conrelid and ix.indexrelid = c.conindid and c.contype in ('p', 'u', 'x'))
  left outer join pg_am am on i.relam = am.oid
 WHERE t.relkind IN ('r', 'v', 'f', 'm', 'p')
   and t.oid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'orders')
   and ix.indisprimary = 'f'
 ORDER BY t.relname, i.relname

-- superset: table description in the dataset editor (get_table_comment). Source: sqlalchemy/sqlalchemy lib/sqlalchemy/dialects/postgresql/base.py (get_table_comment, 1.4)
-- columns: table_comment
-- contains: customer orders
SELECT pgd.description as table_comment
  FROM pg_catalog.pg_description pgd
 WHERE pgd.objsubid = 0
   AND pgd.objoid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'orders')

-- superset: SQL Lab runs a schema-scoped query after pinning the search path (get_prequeries). Source: apache/superset superset/db_engine_specs/postgres.py (get_prequeries)
set search_path = "public"

-- superset: remembers the backend pid so a running SQL Lab query can be cancelled. Source: apache/superset superset/db_engine_specs/postgres.py (get_cancel_query_id)
SELECT pg_backend_pid()

-- superset: a chart query with a month time grain and a time range filter rendered by convert_dttm (DATE_TRUNC, TO_TIMESTAMP with an HH24:MI:SS.US format). Source: apache/superset superset/db_engine_specs/postgres.py (_time_grain_expressions, convert_dttm)
-- columns: __timestamp, sum_total
SELECT DATE_TRUNC('month', ordered_at) AS __timestamp, sum(total) AS sum_total
  FROM public.orders
 WHERE ordered_at >= TO_TIMESTAMP('2024-01-01 00:00:00.000000', 'YYYY-MM-DD HH24:MI:SS.US')
   AND ordered_at < TO_TIMESTAMP('2025-01-01 00:00:00.000000', 'YYYY-MM-DD HH24:MI:SS.US')
 GROUP BY DATE_TRUNC('month', ordered_at)
 ORDER BY sum_total DESC
 LIMIT 10000
