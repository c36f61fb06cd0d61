-- pg_depend records what pg_dump needs to order a dump: a column default
-- that calls nextval (pg_attrdef, 2604) depends normally ('n') on its
-- sequence (pg_class, 1259), so that the sequence is created before the
-- table. An unqualified sequence name is looked up in the table's schema.
-- Mallard records no other dependencies.
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
WHERE d.seqname <> '';
