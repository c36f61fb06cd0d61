-- pg_postmaster_start_time() is when the server started, from the session
-- variable mallard_start_time when the server has set it, else the start of
-- the current transaction.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_postmaster_start_time() AS
    CAST(COALESCE(CAST(getvariable('mallard_start_time') AS TIMESTAMPTZ), transaction_timestamp()) AS TIMESTAMPTZ);
