-- mallard_constraints completes mallard_constraint_base with what needs the
-- referenced table of a FOREIGN KEY (confrelid, confkey, and conindid, the
-- PRIMARY KEY or UNIQUE index of the referenced table that the key matches).
-- The printed definitions are in mallard_constraint_definitions.
-- DuckDB knows only NO ACTION foreign keys, MATCH SIMPLE.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_constraints AS
WITH base AS (
    SELECT * FROM mallard_catalog.pg.mallard_constraint_base
), table_columns AS (
    SELECT table_oid AS attrelid, list(lower(column_name) ORDER BY column_index) AS names
    FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name <> 'main' AND NOT internal
    GROUP BY table_oid
), unique_keys AS (
    SELECT table_oid, list_sort(list_transform(constraint_column_names, n -> lower(n))) AS cols,
        min(index_oid) AS index_oid
    FROM base
    WHERE contype IN ('p', 'u')
    GROUP BY ALL
), with_refs AS (
    SELECT c.*, r.table_oid AS ref_oid, tc.names AS ref_names
    FROM base AS c
    LEFT JOIN duckdb_tables() AS r
        ON c.contype = 'f' AND r.database_name = c.database_name
        AND r.schema_name = c.schema_name AND lower(r.table_name) = lower(c.referenced_table)
    LEFT JOIN table_columns AS tc ON tc.attrelid = r.table_oid
)
SELECT
    c.oid, c.conname, c.connamespace, c.contype, c.table_oid AS conrelid, c.conkey,
    c.schema_name AS nspname, c.table_name AS relname, c.constraint_column_names, c.k,
    CASE c.contype
        WHEN 'f' THEN COALESCE(uk.index_oid, 0)
        WHEN 'c' THEN 0
        ELSE c.index_oid
    END AS conindid,
    COALESCE(c.ref_oid, 0) AS confrelid,
    CASE WHEN c.contype = 'f' THEN list_transform(c.referenced_column_names,
        n -> CAST(list_position(c.ref_names, lower(n)) AS SMALLINT)) END AS confkey,
    c.referenced_table, c.referenced_column_names,
    CASE WHEN c.contype = 'c' THEN c.expression END AS conbin
FROM with_refs AS c
LEFT JOIN unique_keys AS uk
    ON c.contype = 'f' AND uk.table_oid = c.ref_oid
    AND uk.cols = list_sort(list_transform(c.referenced_column_names, n -> lower(n)));
