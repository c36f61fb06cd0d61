-- pg_auth_members is empty: Mallard's one role is a member of no other.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_auth_members AS
SELECT
    CAST(NULL AS BIGINT) AS roleid,
    CAST(NULL AS BIGINT) AS member,
    CAST(NULL AS BIGINT) AS grantor,
    CAST(NULL AS BOOLEAN) AS admin_option
WHERE false;
