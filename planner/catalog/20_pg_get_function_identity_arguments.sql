-- pg_get_function_identity_arguments(func_oid) lists the types of a
-- function's parameters, which identify it among its overloads.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_function_identity_arguments(p_func) AS (
    SELECT identity_args FROM mallard_catalog.pg.mallard_functions WHERE oid = p_func
);
