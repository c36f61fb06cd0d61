-- mallard_regnamespace_name(nsp_oid) is nsp_oid::regnamespace::text: the
-- schema's name, quoted if needed; the number itself for an unknown OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regnamespace_name(p_nsp) AS
    CASE WHEN p_nsp IS NULL THEN NULL ELSE COALESCE((
        SELECT mallard_catalog.pg.quote_ident(__n.nspname)
        FROM (SELECT p_nsp AS v) AS __arg
        JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __arg.v
    ), CAST(p_nsp AS VARCHAR)) END;
