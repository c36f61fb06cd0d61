-- pg_stat_user_tables lists the current database's tables with DuckDB's row
-- count estimate as n_live_tup; DuckDB keeps no access statistics, so every
-- counter is 0 and every timestamp NULL.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_stat_user_tables AS
SELECT
    CAST(table_oid AS BIGINT) AS relid,
    CAST(schema_name AS pg_name) AS schemaname,
    CAST(table_name AS pg_name) AS relname,
    CAST(0 AS BIGINT) AS seq_scan,
    CAST(0 AS BIGINT) AS seq_tup_read,
    CAST(0 AS BIGINT) AS idx_scan,
    CAST(0 AS BIGINT) AS idx_tup_fetch,
    CAST(0 AS BIGINT) AS n_tup_ins,
    CAST(0 AS BIGINT) AS n_tup_upd,
    CAST(0 AS BIGINT) AS n_tup_del,
    CAST(0 AS BIGINT) AS n_tup_hot_upd,
    CAST(estimated_size AS BIGINT) AS n_live_tup,
    CAST(0 AS BIGINT) AS n_dead_tup,
    CAST(0 AS BIGINT) AS n_mod_since_analyze,
    CAST(0 AS BIGINT) AS n_ins_since_vacuum,
    CAST(NULL AS TIMESTAMPTZ) AS last_vacuum,
    CAST(NULL AS TIMESTAMPTZ) AS last_autovacuum,
    CAST(NULL AS TIMESTAMPTZ) AS last_analyze,
    CAST(NULL AS TIMESTAMPTZ) AS last_autoanalyze,
    CAST(0 AS BIGINT) AS vacuum_count,
    CAST(0 AS BIGINT) AS autovacuum_count,
    CAST(0 AS BIGINT) AS analyze_count,
    CAST(0 AS BIGINT) AS autoanalyze_count
FROM duckdb_tables()
WHERE database_name = current_database() AND schema_name <> 'main' AND NOT internal;
