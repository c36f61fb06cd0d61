-- shobj_description(obj_oid, catalog_name) is the comment on a shared object;
-- Mallard keeps only the current database's (pg_shdescription).
CREATE OR REPLACE MACRO mallard_catalog.pg.shobj_description(p_obj, p_catalog) AS (
    SELECT min(__d.description)
    FROM (SELECT p_obj AS v, p_catalog AS catalog) AS __arg
    JOIN mallard_catalog.pg.pg_shdescription AS __d
        ON __d.objoid = __arg.v AND __arg.catalog = 'pg_database'
);
