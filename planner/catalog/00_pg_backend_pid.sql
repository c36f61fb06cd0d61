-- pg_backend_pid() is the process ID the server announced to this session in
-- BackendKeyData, when the server has stored it in the session variable
-- mallard_backend_pid; else DuckDB's connection ID, which is at least unique
-- per session.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_backend_pid() AS
    CAST(COALESCE(getvariable('mallard_backend_pid'), current_connection_id() % 2147483647) AS INTEGER);
