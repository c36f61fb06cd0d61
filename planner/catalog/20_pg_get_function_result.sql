-- pg_get_function_result(func_oid) is a function's result type, SETOF record
-- for a table function.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_function_result(p_func) AS (
    SELECT __f.result
    FROM (SELECT p_func AS v) AS __arg
    JOIN mallard_catalog.pg.mallard_functions AS __f ON __f.oid = __arg.v
);
