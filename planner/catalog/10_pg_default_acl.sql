-- pg_default_acl is empty: Mallard has no privileges, so no default ones.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_default_acl AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS defaclrole,
    CAST(NULL AS BIGINT) AS defaclnamespace,
    CAST(NULL AS pg_char) AS defaclobjtype,
    CAST(NULL AS VARCHAR[]) AS defaclacl
WHERE false;
