-- mallard_indexes lists the indexes pg_class, pg_index and pg_indexes show:
-- one per PRIMARY KEY and UNIQUE constraint, as PostgreSQL keeps one behind
-- each (DuckDB keeps an ART index there too but does not list it in
-- duckdb_indexes()), named after the constraint; and every index made with
-- CREATE INDEX. indkey holds each key's column number, 0 for an expression;
-- keys each key's text (a column's name, unquoted, for a constraint's index;
-- DuckDB's text of the key, quoted as needed, for a created one). Every
-- index is shown as a btree: DuckDB's ART indexes answer the same questions.
-- The printed definitions are in mallard_index_definitions.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_indexes AS
WITH table_columns AS (
    SELECT table_oid AS attrelid, list(lower(column_name) ORDER BY column_index) AS names
    FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name <> 'main' AND NOT internal
    GROUP BY table_oid
), created AS (
    SELECT i.*, CAST(i.expressions AS VARCHAR[]) AS elems, tc.names
    FROM duckdb_indexes() AS i
    LEFT JOIN table_columns AS tc ON tc.attrelid = i.table_oid
    WHERE i.database_name = current_database() AND i.schema_name <> 'main'
), created_keys AS (
    SELECT *,
        list_transform(elems, e -> CAST(COALESCE(list_position(names, lower(
            CASE WHEN e LIKE '"%"' THEN replace(e[2:-2], '""', '"') ELSE e END)), 0) AS SMALLINT)) AS indkey
    FROM created
)
SELECT
    c.index_oid AS indexrelid, c.conname AS relname, c.table_oid AS indrelid,
    c.connamespace AS relnamespace, c.schema_name AS nspname, c.table_name AS tablename,
    true AS indisunique, c.contype = 'p' AS indisprimary, c.conkey AS indkey,
    c.constraint_column_names AS keys, true AS keys_are_names,
    CAST(NULL AS VARCHAR) AS indexprs, c.oid AS conoid, CAST(NULL AS VARCHAR) AS comment
FROM mallard_catalog.pg.mallard_constraint_base AS c
WHERE c.contype IN ('p', 'u')
UNION ALL
SELECT
    index_oid, index_name, table_oid,
    mallard_catalog.pg.mallard_nspoid(schema_name, schema_oid), schema_name, table_name,
    is_unique, is_primary, indkey, elems, false,
    CASE WHEN list_contains(indkey, 0) THEN
        array_to_string(list_filter(elems, (e, i) -> indkey[i] = 0), ', ')
    END,
    CAST(NULL AS BIGINT), comment
FROM created_keys;
