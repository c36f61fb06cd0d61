-- pg_attrdef lists the column defaults of the current database's tables.
-- adbin holds the default expression as DuckDB prints it, which pg_get_expr
-- returns as is.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_attrdef AS
SELECT
    mallard_catalog.pg.mallard_sub_oid(c.table_oid, 2, c.column_index) AS oid,
    CAST(c.table_oid AS BIGINT) AS adrelid,
    CAST(c.column_index AS SMALLINT) AS adnum,
    c.column_default AS adbin
FROM duckdb_columns() AS c
JOIN duckdb_tables() AS t ON t.table_oid = c.table_oid
WHERE c.database_name = current_database() AND c.schema_name <> 'main' AND NOT c.internal
    AND c.column_default IS NOT NULL;
