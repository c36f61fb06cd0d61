-- obj_description(obj_oid, catalog_name) is the comment on an object, from
-- pg_description, where catalog_name names the catalog that holds the object
-- ('pg_class', 'pg_type', 'pg_namespace', 'pg_proc'); the deprecated
-- one-argument form looks in every catalog.
CREATE OR REPLACE MACRO mallard_catalog.pg.obj_description(p_obj) AS (
        SELECT min(description) FROM mallard_catalog.pg.pg_description
        WHERE objoid = p_obj AND objsubid = 0),
    (p_obj, p_catalog) AS (
        SELECT min(description) FROM mallard_catalog.pg.pg_description
        WHERE objoid = p_obj AND objsubid = 0
            AND classoid = mallard_catalog.pg.mallard_regclass(p_catalog));
