-- pg_partitioned_table is empty: DuckDB has no partitioned tables.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_partitioned_table AS
SELECT
    CAST(NULL AS BIGINT) AS partrelid,
    CAST(NULL AS pg_char) AS partstrat,
    CAST(NULL AS SMALLINT) AS partnatts,
    CAST(NULL AS BIGINT) AS partdefid,
    CAST(NULL AS pg_int2vector_elem[]) AS partattrs,
    CAST(NULL AS pg_oidvector_elem[]) AS partclass,
    CAST(NULL AS pg_oidvector_elem[]) AS partcollation,
    CAST(NULL AS VARCHAR) AS partexprs
WHERE false;
