-- pg_user lists Mallard's one role (see pg_roles) as a user.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_user AS
SELECT
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS usename,
    CAST(10 AS BIGINT) AS usesysid,
    true AS usecreatedb,
    true AS usesuper,
    true AS userepl,
    true AS usebypassrls,
    '********' AS passwd,
    CAST(NULL AS TIMESTAMPTZ) AS valuntil,
    CAST(NULL AS VARCHAR[]) AS useconfig;
