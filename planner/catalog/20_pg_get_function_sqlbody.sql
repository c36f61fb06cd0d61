-- pg_get_function_sqlbody(func_oid) is the body of a function written in
-- SQL-standard form (BEGIN ATOMIC ... END); NULL for every other function,
-- which is every function Mallard lists. psql's \df+ reads it.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_function_sqlbody(p_func) AS CAST(NULL AS VARCHAR);
