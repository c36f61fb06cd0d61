-- pg_function_is_visible(func_oid) tells whether a function can be called
-- without its schema: whether it is in pg_catalog or the current schema.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_function_is_visible(p_func) AS (
    SELECT f.pronamespace = 11 OR n.nspname = system.main.current_schema()
    FROM mallard_catalog.pg.mallard_functions AS f
    JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = f.pronamespace
    WHERE f.oid = p_func
);
