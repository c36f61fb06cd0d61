-- pg_get_function_result(func_oid) is a function's result type, SETOF record
-- for a table function.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_function_result(p_func) AS (
    SELECT result FROM mallard_catalog.pg.mallard_functions WHERE oid = p_func
);
