-- obj_description(obj_oid, catalog_name) is the comment on an object, from
-- pg_description, where catalog_name names the catalog that holds the object
-- ('pg_class', 'pg_type', 'pg_namespace', 'pg_proc'); the deprecated
-- one-argument form looks in every catalog.
CREATE OR REPLACE MACRO mallard_catalog.pg.obj_description(p_obj) AS (
        SELECT min(__d.description)
        FROM (SELECT p_obj AS v) AS __arg
        JOIN mallard_catalog.pg.pg_description AS __d ON __d.objoid = __arg.v AND __d.objsubid = 0),
    (p_obj, p_catalog) AS (
        SELECT min(__d.description)
        FROM (SELECT p_obj AS v, mallard_catalog.pg.mallard_regclass(p_catalog) AS classoid) AS __arg
        JOIN mallard_catalog.pg.pg_description AS __d
            ON __d.objoid = __arg.v AND __d.objsubid = 0 AND __d.classoid = __arg.classoid);
