-- pg_get_functiondef(func_oid) is the CREATE OR REPLACE FUNCTION statement
-- of a function, laid out as PostgreSQL 15 lays it out: the qualified name
-- and arguments with their defaults, then one line each for RETURNS,
-- LANGUAGE, the volatility unless volatile and PARALLEL SAFE, then the body
-- (a macro's definition, or the internal function's name) between
-- $function$ quotes. Aggregates and window functions, which PostgreSQL
-- refuses, and unknown OIDs give NULL.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_functiondef(p_func) AS (
    SELECT 'CREATE OR REPLACE FUNCTION ' || mallard_catalog.pg.quote_ident(__n.nspname) || '.'
        || mallard_catalog.pg.quote_ident(__f.proname) || '(' || __f.args || ')' || chr(10)
        || ' RETURNS ' || __f.result || chr(10)
        || ' LANGUAGE ' || CASE WHEN __f.prolang = 14 THEN 'sql' ELSE 'internal' END || chr(10)
        || CASE __f.provolatile WHEN 'i' THEN ' IMMUTABLE' || chr(10) WHEN 's' THEN ' STABLE' || chr(10) ELSE '' END
        || ' PARALLEL SAFE' || chr(10)
        || 'AS $function$' || __f.prosrc || '$function$' || chr(10)
    FROM (SELECT p_func AS v) AS __arg
    JOIN mallard_catalog.pg.mallard_functions AS __f ON __f.oid = __arg.v AND __f.prokind = 'f'
    JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __f.pronamespace
);
