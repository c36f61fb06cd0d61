-- pg_get_userbyid(role_oid) names a role: Mallard's one role for OID 10, and
-- as PostgreSQL does for an unknown OID, 'unknown (OID=n)'; a name, as in
-- PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_userbyid(role_oid) AS
    CAST(CASE
        WHEN role_oid IS NULL THEN NULL
        WHEN role_oid = 10 THEN mallard_catalog.pg.mallard_user()
        ELSE 'unknown (OID=' || role_oid || ')'
    END AS pg_name);
