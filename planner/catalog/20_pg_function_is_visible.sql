-- pg_function_is_visible(func_oid) tells whether a function can be called
-- without its schema: whether it is in pg_catalog or the current schema.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_function_is_visible(p_func) AS (
    SELECT __f.pronamespace = 11 OR __n.nspname = system.main.current_schema()
    FROM (SELECT p_func AS v) AS __arg
    JOIN mallard_catalog.pg.mallard_functions AS __f ON __f.oid = __arg.v
    JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __f.pronamespace
);
