-- pg_statistic_ext is empty: DuckDB has no extended statistics objects.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_statistic_ext AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS stxrelid,
    CAST(NULL AS pg_name) AS stxname,
    CAST(NULL AS BIGINT) AS stxnamespace,
    CAST(NULL AS BIGINT) AS stxowner,
    CAST(NULL AS INTEGER) AS stxstattarget,
    CAST(NULL AS pg_int2vector_elem[]) AS stxkeys,
    CAST(NULL AS pg_char[]) AS stxkind,
    CAST(NULL AS VARCHAR) AS stxexprs
WHERE false;
