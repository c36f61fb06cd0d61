-- information_schema.columns lists the columns of the relations in
-- information_schema.tables, typed as they are presented on the wire
-- (pg_attribute.atttypid): data_type in PostgreSQL's spelling ('integer',
-- 'timestamp with time zone', 'ARRAY' for arrays), udt_name the pg_type name
-- ('int4', '_int4'). Precision, radix and scale follow PostgreSQL's rules;
-- strings have no length limit (DuckDB keeps none).
CREATE OR REPLACE VIEW mallard_catalog.info.columns AS
SELECT
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(c.nspname AS pg_name) AS table_schema,
    CAST(c.relname AS pg_name) AS table_name,
    CAST(c.attname AS pg_name) AS column_name,
    CAST(c.attnum AS INTEGER) AS ordinal_position,
    CAST(c.column_default AS pg_varchar) AS column_default,
    CAST(CASE WHEN c.attnotnull THEN 'NO' ELSE 'YES' END AS pg_varchar) AS is_nullable,
    CAST(CASE WHEN t.typcategory = 'A' THEN 'ARRAY' WHEN t.typtype IN ('e', 'c') THEN 'USER-DEFINED' ELSE COALESCE(mallard_catalog.pg.mallard_oid_name(c.atttypid), t.typname) END AS pg_varchar) AS data_type,
    CAST(NULL AS INTEGER) AS character_maximum_length,
    CAST(CASE WHEN c.atttypid IN (25, 1042, 1043) THEN 1073741824 END AS INTEGER) AS character_octet_length,
    CAST(CASE c.atttypid WHEN 21 THEN 16 WHEN 23 THEN 32 WHEN 20 THEN 64 WHEN 700 THEN 24 WHEN 701 THEN 53 WHEN 1700 THEN CASE WHEN c.atttypmod >= 4 THEN (c.atttypmod - 4) >> 16 END END AS INTEGER) AS numeric_precision,
    CAST(CASE WHEN c.atttypid IN (21, 23, 20, 700, 701) THEN 2 WHEN c.atttypid = 1700 THEN 10 END AS INTEGER) AS numeric_precision_radix,
    CAST(CASE WHEN c.atttypid IN (21, 23, 20) THEN 0 WHEN c.atttypid = 1700 AND c.atttypmod >= 4 THEN (c.atttypmod - 4) & 65535 END AS INTEGER) AS numeric_scale,
    CAST(CASE WHEN c.atttypid = 1082 THEN 0 WHEN c.atttypid IN (1083, 1266, 1114, 1184, 1186) THEN 6 END AS INTEGER) AS datetime_precision,
    CAST(NULL AS pg_varchar) AS interval_type,
    CAST(NULL AS INTEGER) AS interval_precision,
    CAST(NULL AS pg_name) AS character_set_catalog,
    CAST(NULL AS pg_name) AS character_set_schema,
    CAST(NULL AS pg_name) AS character_set_name,
    CAST(NULL AS pg_name) AS collation_catalog,
    CAST(NULL AS pg_name) AS collation_schema,
    CAST(NULL AS pg_name) AS collation_name,
    CAST(NULL AS pg_name) AS domain_catalog,
    CAST(NULL AS pg_name) AS domain_schema,
    CAST(NULL AS pg_name) AS domain_name,
    CAST(current_database() AS pg_name) AS udt_catalog,
    CAST(CASE WHEN t.typnamespace = 11 THEN 'pg_catalog' ELSE un.nspname END AS pg_name) AS udt_schema,
    CAST(t.typname AS pg_name) AS udt_name,
    CAST(NULL AS pg_name) AS scope_catalog,
    CAST(NULL AS pg_name) AS scope_schema,
    CAST(NULL AS pg_name) AS scope_name,
    CAST(NULL AS INTEGER) AS maximum_cardinality,
    CAST(CAST(c.attnum AS VARCHAR) AS pg_name) AS dtd_identifier,
    CAST('NO' AS pg_varchar) AS is_self_referencing,
    CAST('NO' AS pg_varchar) AS is_identity,
    CAST(NULL AS pg_varchar) AS identity_generation,
    CAST(NULL AS pg_varchar) AS identity_start,
    CAST(NULL AS pg_varchar) AS identity_increment,
    CAST(NULL AS pg_varchar) AS identity_maximum,
    CAST(NULL AS pg_varchar) AS identity_minimum,
    CAST('NO' AS pg_varchar) AS identity_cycle,
    CAST('NEVER' AS pg_varchar) AS is_generated,
    CAST(NULL AS pg_varchar) AS generation_expression,
    CAST(CASE c.relkind WHEN 'r' THEN 'YES' ELSE 'NO' END AS pg_varchar) AS is_updatable
FROM mallard_catalog.pg.mallard_columns AS c
LEFT JOIN mallard_catalog.pg.pg_type AS t ON t.oid = c.atttypid
LEFT JOIN mallard_catalog.pg.pg_namespace AS un ON un.oid = t.typnamespace;
