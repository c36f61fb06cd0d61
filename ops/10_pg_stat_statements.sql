-- pg_stat_statements has the columns of Postgres' extension that Mallard
-- measures: statements grouped by role and by the fingerprint of their
-- normalised text, with their calls, execution times in milliseconds and
-- rows. A read-only caller sees other roles' queries as
-- '<insufficient privilege>'. The planning, block and WAL columns of the
-- extension are left out: DuckDB reports none of them. usename, the
-- role's name, is Mallard's addition.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_stat_statements AS
SELECT
    CAST(10 AS BIGINT) AS userid,
    mallard_catalog.pg.mallard_database_oid() AS dbid,
    true AS toplevel,
    s.queryid,
    s.query,
    s.calls,
    s.total_exec_time,
    s.min_exec_time,
    s.max_exec_time,
    s.mean_exec_time,
    s.stddev_exec_time,
    s.rows,
    CAST(s.usename AS pg_name) AS usename
FROM mallard_statements(coalesce(getvariable('mallard_connection'), '')) AS s;
