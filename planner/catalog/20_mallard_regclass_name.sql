-- mallard_regclass_name(rel_oid) is rel_oid::regclass::text: the relation's
-- name, quoted if needed and qualified with its schema when that is not on
-- the search path; the number itself for an unknown OID.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regclass_name(p_rel) AS
    CASE WHEN p_rel IS NULL THEN NULL ELSE COALESCE((
        SELECT CASE WHEN c.relnamespace = 11 OR n.nspname = system.main.current_schema()
            THEN mallard_catalog.pg.quote_ident(c.relname)
            ELSE mallard_catalog.pg.quote_ident(n.nspname) || '.' || mallard_catalog.pg.quote_ident(c.relname)
        END
        FROM mallard_catalog.pg.pg_class AS c
        JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = c.relnamespace
        WHERE c.oid = p_rel
    ), CAST(p_rel AS VARCHAR)) END;
