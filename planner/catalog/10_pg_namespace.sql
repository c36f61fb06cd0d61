-- pg_namespace lists pg_catalog, information_schema and the schemas of the
-- current database. DuckDB's main schema is hidden: Mallard keeps user
-- objects in public, and main stays empty.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_namespace AS
SELECT CAST(11 AS BIGINT) AS oid, CAST('pg_catalog' AS pg_name) AS nspname, CAST(10 AS BIGINT) AS nspowner,
       CAST(NULL AS VARCHAR[]) AS nspacl
UNION ALL
SELECT 13207, 'information_schema', 10, NULL
UNION ALL
SELECT mallard_catalog.pg.mallard_nspoid(schema_name, oid), schema_name, 10, NULL
FROM duckdb_schemas()
WHERE database_name = current_database()
    AND schema_name NOT IN ('main', 'pg_catalog', 'information_schema');
