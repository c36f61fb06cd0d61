-- pg_statio_user_tables lists the current database's tables; DuckDB keeps no
-- I/O statistics, so the block counters are 0, and NULL where PostgreSQL
-- would have no TOAST table.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_statio_user_tables AS
SELECT
    CAST(table_oid AS BIGINT) AS relid,
    CAST(schema_name AS pg_name) AS schemaname,
    CAST(table_name AS pg_name) AS relname,
    CAST(0 AS BIGINT) AS heap_blks_read,
    CAST(0 AS BIGINT) AS heap_blks_hit,
    CAST(0 AS BIGINT) AS idx_blks_read,
    CAST(0 AS BIGINT) AS idx_blks_hit,
    CAST(NULL AS BIGINT) AS toast_blks_read,
    CAST(NULL AS BIGINT) AS toast_blks_hit,
    CAST(NULL AS BIGINT) AS tidx_blks_read,
    CAST(NULL AS BIGINT) AS tidx_blks_hit
FROM duckdb_tables()
WHERE database_name = current_database() AND schema_name <> 'main' AND NOT internal;
