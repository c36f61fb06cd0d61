-- pg_relation_size(rel_oid[, fork]) estimates a table's size in bytes as 8
-- bytes per value (DuckDB's row count estimate times the number of columns):
-- DuckDB has no cheap per-table size, and its compressed columnar storage is
-- usually smaller. Other relations, and forks other than main, are 0.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_relation_size(p_rel) AS COALESCE((
        SELECT CAST(__t.estimated_size * __t.column_count * 8 AS BIGINT)
        FROM (SELECT p_rel AS v) AS __arg
        JOIN duckdb_tables() AS __t ON __t.table_oid = __arg.v
    ), 0),
    (p_rel, p_fork) AS CASE WHEN p_fork = 'main' THEN COALESCE((
        SELECT CAST(__t.estimated_size * __t.column_count * 8 AS BIGINT)
        FROM (SELECT p_rel AS v) AS __arg
        JOIN duckdb_tables() AS __t ON __t.table_oid = __arg.v
    ), 0) ELSE 0 END;
