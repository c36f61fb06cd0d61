-- mallard_regrole_name(role_oid) is role_oid::regrole::text: Mallard's one
-- role for 10, the number itself for any other OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regrole_name(role_oid) AS
    CASE
        WHEN role_oid IS NULL THEN NULL
        WHEN role_oid = 10 THEN mallard_catalog.pg.quote_ident(mallard_catalog.pg.mallard_user())
        ELSE CAST(role_oid AS VARCHAR)
    END;
