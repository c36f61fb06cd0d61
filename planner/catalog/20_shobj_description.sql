-- shobj_description(obj_oid, catalog_name) is the comment on a shared object;
-- Mallard keeps only the current database's (pg_shdescription).
CREATE OR REPLACE MACRO mallard_catalog.pg.shobj_description(p_obj, p_catalog) AS (
    SELECT min(description) FROM mallard_catalog.pg.pg_shdescription
    WHERE objoid = p_obj AND p_catalog = 'pg_database'
);
