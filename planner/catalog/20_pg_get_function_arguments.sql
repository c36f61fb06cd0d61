-- pg_get_function_arguments(func_oid) lists a function's parameters with
-- their types ('x integer, y text'); DuckDB's generic parameters show as
-- anyelement, "any" or anyarray.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_function_arguments(p_func) AS (
    SELECT args FROM mallard_catalog.pg.mallard_functions WHERE oid = p_func
);
