-- pg_get_function_arguments(func_oid) lists a function's parameters with
-- their types ('x integer, y text'); DuckDB's generic parameters show as
-- anyelement, "any" or anyarray.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_function_arguments(p_func) AS (
    SELECT __f.args
    FROM (SELECT p_func AS v) AS __arg
    JOIN mallard_catalog.pg.mallard_functions AS __f ON __f.oid = __arg.v
);
