-- pg_stat_activity as the catalog alone can give it: the calling session
-- only, which DuckDB describes through session variables
-- (mallard_application_name, mallard_client_addr, mallard_client_port,
-- mallard_backend_start; see also mallard_user and pg_backend_pid). A
-- running server replaces this view with ops/10_pg_stat_activity.sql,
-- which lists every session: the function that view reads exists only once
-- the server does, after the catalog is installed.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_stat_activity AS
SELECT
    mallard_catalog.pg.mallard_database_oid() AS datid,
    CAST(current_database() AS pg_name) AS datname,
    mallard_catalog.pg.pg_backend_pid() AS pid,
    CAST(NULL AS INTEGER) AS leader_pid,
    CAST(10 AS BIGINT) AS usesysid,
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS usename,
    CAST(COALESCE(getvariable('mallard_application_name'), '') AS VARCHAR) AS application_name,
    CAST(getvariable('mallard_client_addr') AS VARCHAR) AS client_addr,
    CAST(NULL AS VARCHAR) AS client_hostname,
    CAST(getvariable('mallard_client_port') AS INTEGER) AS client_port,
    CAST(getvariable('mallard_backend_start') AS TIMESTAMPTZ) AS backend_start,
    CAST(transaction_timestamp() AS TIMESTAMPTZ) AS xact_start,
    CAST(get_current_timestamp() AS TIMESTAMPTZ) AS query_start,
    CAST(get_current_timestamp() AS TIMESTAMPTZ) AS state_change,
    CAST(NULL AS VARCHAR) AS wait_event_type,
    CAST(NULL AS VARCHAR) AS wait_event,
    'active' AS state,
    CAST(NULL AS BIGINT) AS backend_xid,
    CAST(NULL AS BIGINT) AS backend_xmin,
    CAST(NULL AS BIGINT) AS query_id,
    current_query() AS query,
    'client backend' AS backend_type;
