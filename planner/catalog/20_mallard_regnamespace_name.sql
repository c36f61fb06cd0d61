-- mallard_regnamespace_name(nsp_oid) is nsp_oid::regnamespace::text: the
-- schema's name, quoted if needed; the number itself for an unknown OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regnamespace_name(p_nsp) AS
    CASE WHEN p_nsp IS NULL THEN NULL ELSE COALESCE((
        SELECT mallard_catalog.pg.quote_ident(nspname) FROM mallard_catalog.pg.pg_namespace WHERE oid = p_nsp
    ), CAST(p_nsp AS VARCHAR)) END;
