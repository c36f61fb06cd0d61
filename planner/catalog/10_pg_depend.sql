-- pg_depend records what pg_dump needs to order a dump: a column default
-- that calls nextval (pg_attrdef, 2604) depends normally ('n') on its
-- sequence (pg_class, 1259), so that the sequence is created before the
-- table. An unqualified sequence name is looked up in the table's schema.
-- A view (pg_class) depends normally on each table or view its query names
-- qualified, as Mallard writes a view's names (see planner.ViewStep), so
-- that pg_dump creates it after them. Mallard records no other
-- dependencies.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_depend AS
WITH defaults AS (
    SELECT mallard_catalog.pg.mallard_sub_oid(c.attrelid, 2, c.attnum) AS objid, c.nspname,
        regexp_extract(c.column_default, '^nextval\(''((?:[^'']|'''')*)''::regclass\)$', 1) AS seqname
    FROM mallard_catalog.pg.mallard_columns AS c
    WHERE c.relkind = 'r' AND c.column_default LIKE 'nextval(%'
)
SELECT
    CAST(2604 AS BIGINT) AS classid,
    CAST(d.objid AS BIGINT) AS objid,
    CAST(0 AS INTEGER) AS objsubid,
    CAST(1259 AS BIGINT) AS refclassid,
    CAST(s.sequence_oid AS BIGINT) AS refobjid,
    CAST(0 AS INTEGER) AS refobjsubid,
    CAST('n' AS pg_char) AS deptype
FROM defaults AS d
JOIN duckdb_sequences() AS s
    ON s.database_name = current_database()
    AND s.schema_name = CASE WHEN contains(d.seqname, '.') THEN split_part(d.seqname, '.', 1) ELSE d.nspname END
    AND s.sequence_name = CASE WHEN contains(d.seqname, '.') THEN split_part(d.seqname, '.', 2) ELSE d.seqname END
WHERE d.seqname <> ''
UNION ALL
SELECT
    CAST(1259 AS BIGINT),
    CAST(v.view_oid AS BIGINT),
    CAST(0 AS INTEGER),
    CAST(1259 AS BIGINT),
    CAST(r.oid AS BIGINT),
    CAST(0 AS INTEGER),
    CAST('n' AS pg_char)
FROM duckdb_views() AS v
JOIN (
    SELECT table_oid AS oid, schema_name, table_name AS name FROM duckdb_tables() WHERE database_name = current_database()
    UNION ALL
    SELECT view_oid, schema_name, view_name FROM duckdb_views() WHERE database_name = current_database() AND NOT internal
) AS r
    ON r.oid <> v.view_oid
    AND regexp_matches(v.sql, '(^|[^A-Za-z0-9_."])' || regexp_escape(r.schema_name || '.' || r.name) || '($|[^A-Za-z0-9_"])')
WHERE v.database_name = current_database() AND NOT v.internal;
