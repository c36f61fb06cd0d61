-- mallard_constraints completes mallard_constraint_base with what needs the
-- referenced table of a FOREIGN KEY (confrelid, confkey, and conindid, the
-- PRIMARY KEY or UNIQUE index of the referenced table that the key matches)
-- and with condef, the definition as pg_get_constraintdef prints it.
-- DuckDB knows only NO ACTION foreign keys, MATCH SIMPLE.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_constraints AS
WITH table_columns AS (
    SELECT attrelid, list(lower(attname) ORDER BY attnum) AS names
    FROM mallard_catalog.pg.mallard_columns
    WHERE relkind = 'r'
    GROUP BY attrelid
), unique_keys AS (
    SELECT table_oid, list_sort(list_transform(constraint_column_names, n -> lower(n))) AS cols,
        min(index_oid) AS index_oid
    FROM mallard_catalog.pg.mallard_constraint_base
    WHERE contype IN ('p', 'u')
    GROUP BY ALL
), with_refs AS (
    SELECT c.*, r.table_oid AS ref_oid, tc.names AS ref_names
    FROM mallard_catalog.pg.mallard_constraint_base AS c
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
    CASE WHEN c.contype = 'c' THEN c.expression END AS conbin,
    CASE c.contype
        WHEN 'p' THEN 'PRIMARY KEY ('
        WHEN 'u' THEN 'UNIQUE ('
        WHEN 'f' THEN 'FOREIGN KEY ('
        ELSE 'CHECK ('
    END || CASE WHEN c.contype = 'c' THEN c.expression ELSE
        array_to_string(list_transform(c.constraint_column_names, n -> mallard_catalog.pg.quote_ident(n)), ', ')
    END || ')' || CASE WHEN c.contype = 'f' THEN
        ' REFERENCES ' || mallard_catalog.pg.quote_ident(c.referenced_table) || '('
        || array_to_string(list_transform(c.referenced_column_names, n -> mallard_catalog.pg.quote_ident(n)), ', ')
        || ')'
    ELSE '' END AS condef
FROM with_refs AS c
LEFT JOIN unique_keys AS uk
    ON c.contype = 'f' AND uk.table_oid = c.ref_oid
    AND uk.cols = list_sort(list_transform(c.referenced_column_names, n -> lower(n)));
