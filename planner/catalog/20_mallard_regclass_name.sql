-- mallard_regclass_name(rel_oid) is rel_oid::regclass::text: the relation's
-- name, quoted if needed and qualified with its schema when that is not on
-- the search path; the number itself for an unknown OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regclass_name(p_rel) AS
    CASE WHEN p_rel IS NULL THEN NULL ELSE COALESCE((
        SELECT CASE WHEN __c.relnamespace = 11 OR __n.nspname = system.main.current_schema()
            THEN mallard_catalog.pg.quote_ident(__c.relname)
            ELSE mallard_catalog.pg.quote_ident(__n.nspname) || '.' || mallard_catalog.pg.quote_ident(__c.relname)
        END
        FROM (SELECT p_rel AS v) AS __arg
        JOIN mallard_catalog.pg.pg_class AS __c ON __c.oid = __arg.v
        JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __c.relnamespace
    ), CAST(p_rel AS VARCHAR)) END;
