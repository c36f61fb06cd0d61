-- pg_conf_load_time() is when the configuration was loaded: the server's
-- start (see pg_postmaster_start_time).
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_conf_load_time() AS
    CAST(COALESCE(CAST(getvariable('mallard_start_time') AS TIMESTAMPTZ), transaction_timestamp()) AS TIMESTAMPTZ);
