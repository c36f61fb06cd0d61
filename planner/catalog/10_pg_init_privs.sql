-- pg_init_privs is empty: no object has initial privileges, Mallard has none to grant.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_init_privs AS
SELECT
    CAST(NULL AS BIGINT) AS objoid,
    CAST(NULL AS BIGINT) AS classoid,
    CAST(NULL AS INTEGER) AS objsubid,
    CAST(NULL AS pg_char) AS privtype,
    CAST(NULL AS VARCHAR[]) AS initprivs
WHERE false;
