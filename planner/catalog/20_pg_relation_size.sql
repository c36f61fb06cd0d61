-- pg_relation_size(rel_oid[, fork]) estimates a table's size in bytes as 8
-- bytes per value (DuckDB's row count estimate times the number of columns):
-- DuckDB has no cheap per-table size, and its compressed columnar storage is
-- usually smaller. Other relations, and forks other than main, are 0.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_relation_size(p_rel) AS COALESCE((
        SELECT CAST(estimated_size * column_count * 8 AS BIGINT) FROM duckdb_tables() WHERE table_oid = p_rel
    ), 0),
    (p_rel, p_fork) AS CASE WHEN p_fork = 'main' THEN COALESCE((
        SELECT CAST(estimated_size * column_count * 8 AS BIGINT) FROM duckdb_tables() WHERE table_oid = p_rel
    ), 0) ELSE 0 END;
