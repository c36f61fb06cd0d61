-- pg_roles lists Mallard's one role: OID 10, named by mallard_user(), a
-- superuser that can log in and owns every object. The password is hidden
-- as PostgreSQL hides it.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_roles AS
SELECT
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS rolname,
    true AS rolsuper,
    true AS rolinherit,
    true AS rolcreaterole,
    true AS rolcreatedb,
    true AS rolcanlogin,
    true AS rolreplication,
    CAST(-1 AS INTEGER) AS rolconnlimit,
    '********' AS rolpassword,
    CAST(NULL AS TIMESTAMPTZ) AS rolvaliduntil,
    true AS rolbypassrls,
    CAST(NULL AS VARCHAR[]) AS rolconfig,
    CAST(10 AS BIGINT) AS oid;
