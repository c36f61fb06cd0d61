-- mallard_columns lists the columns of every relation the catalog shows: the
-- tables and views of the current database outside DuckDB's hidden main
-- schema, and Mallard's own pg_catalog and information_schema views under
-- PostgreSQL's names and OIDs. atttypid and atttypmod are the type a column
-- is presented as on the wire (mallard_type_oid, mallard_type_typmod).
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_columns AS
SELECT
    c.table_oid AS attrelid,
    mallard_catalog.pg.mallard_nspoid(c.schema_name, c.schema_oid) AS relnamespace,
    c.schema_name AS nspname,
    c.table_name AS relname,
    CASE WHEN t.table_oid IS NULL THEN 'v' ELSE 'r' END AS relkind,
    c.column_name AS attname,
    CAST(c.column_index AS SMALLINT) AS attnum,
    c.data_type,
    mallard_catalog.pg.mallard_type_oid(c.data_type) AS atttypid,
    mallard_catalog.pg.mallard_type_typmod(c.data_type) AS atttypmod,
    NOT c.is_nullable AS attnotnull,
    c.column_default,
    c.comment
FROM duckdb_columns() AS c
LEFT JOIN duckdb_tables() AS t ON t.table_oid = c.table_oid
WHERE c.database_name = current_database() AND c.schema_name <> 'main' AND NOT c.internal
UNION ALL
SELECT
    r.oid,
    CASE c.schema_name WHEN 'pg' THEN 11 ELSE 13207 END,
    r.nspname,
    r.relname,
    r.relkind,
    c.column_name,
    CAST(c.column_index AS SMALLINT),
    c.data_type,
    mallard_catalog.pg.mallard_type_oid(c.data_type),
    mallard_catalog.pg.mallard_type_typmod(c.data_type),
    false,
    NULL,
    NULL
FROM duckdb_columns() AS c
JOIN mallard_catalog.pg.mallard_catalog_relations AS r
    ON r.relname = c.table_name
    AND r.nspname = CASE c.schema_name WHEN 'pg' THEN 'pg_catalog' ELSE 'information_schema' END
WHERE c.database_name = 'mallard_catalog' AND c.schema_name IN ('pg', 'info');
