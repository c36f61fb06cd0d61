-- pg_stat_activity lists every client session of the server, with
-- Postgres' columns and types (client_addr is text: DuckDB has no inet
-- without an extension). A read-only caller sees only its own role's
-- sessions in full; of the others, the query is '<insufficient privilege>'
-- and the columns past application_name are NULL, as in Postgres. The
-- argument is never NULL: duckdb-go aborts on a NULL table-function argument.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_stat_activity AS
SELECT
    mallard_catalog.pg.mallard_database_oid() AS datid,
    CAST(current_database() AS pg_name) AS datname,
    a.pid,
    CAST(NULL AS INTEGER) AS leader_pid,
    CAST(10 AS BIGINT) AS usesysid,
    CAST(a.usename AS pg_name) AS usename,
    a.application_name,
    a.client_addr,
    CAST(NULL AS VARCHAR) AS client_hostname,
    a.client_port,
    a.backend_start,
    a.xact_start,
    a.query_start,
    a.state_change,
    CAST(NULL AS VARCHAR) AS wait_event_type,
    CAST(NULL AS VARCHAR) AS wait_event,
    a.state,
    CAST(NULL AS BIGINT) AS backend_xid,
    CAST(NULL AS BIGINT) AS backend_xmin,
    CAST(NULL AS BIGINT) AS query_id,
    a.query,
    a.backend_type
FROM mallard_activity(coalesce(getvariable('mallard_connection'), '')) AS a;
