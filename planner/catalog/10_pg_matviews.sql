-- pg_matviews is empty: DuckDB has no materialized views.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_matviews AS
SELECT
    CAST(NULL AS pg_name) AS schemaname,
    CAST(NULL AS pg_name) AS matviewname,
    CAST(NULL AS pg_name) AS matviewowner,
    CAST(NULL AS pg_name) AS tablespace,
    CAST(NULL AS BOOLEAN) AS hasindexes,
    CAST(NULL AS BOOLEAN) AS ispopulated,
    CAST(NULL AS VARCHAR) AS definition
WHERE false;
