-- pg_get_function_identity_arguments(func_oid) lists the types of a
-- function's parameters, which identify it among its overloads.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_function_identity_arguments(p_func) AS (
    SELECT __f.identity_args
    FROM (SELECT p_func AS v) AS __arg
    JOIN mallard_catalog.pg.mallard_functions AS __f ON __f.oid = __arg.v
);
