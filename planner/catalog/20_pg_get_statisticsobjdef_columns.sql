-- pg_get_statisticsobjdef_columns(stat_oid) is NULL: DuckDB has no extended
-- statistics objects (pg_statistic_ext is empty).
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_statisticsobjdef_columns(stat_oid) AS CAST(NULL AS VARCHAR);
