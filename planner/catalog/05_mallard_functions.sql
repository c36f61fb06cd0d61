-- mallard_functions lists the functions pg_proc shows: DuckDB's built-in
-- functions, Mallard's own catalog functions (both in pg_catalog) and the
-- macros of the current database's schemas, one row per overload. DuckDB
-- gives all overloads of a function one OID, so each overload's OID is
-- derived from it (mallard_sub_oid, counting overloads in a fixed order);
-- DuckDB's window functions have OID 0 and are numbered 1, 2, ... .
-- DuckDB's own pg_catalog macros and the built-ins Mallard's catalog
-- replaces (current_user, ...) are left out. args, identity_args and result
-- are what pg_get_function_arguments, pg_get_function_identity_arguments and
-- pg_get_function_result print. A table function of the system catalog with
-- a row in mallard_signatures (one of Mallard's) is shown by that row.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_functions AS
WITH own AS (
    SELECT DISTINCT function_name FROM duckdb_functions() WHERE database_name = 'mallard_catalog'
), f AS (
    SELECT d.*,
        row_number() OVER (
            PARTITION BY d.function_oid
            ORDER BY d.database_name, d.schema_name, d.function_name,
                CAST(d.parameter_types AS VARCHAR), d.return_type, CAST(d.parameters AS VARCHAR)
        ) AS k,
        COALESCE(m.argtypes,
            list_transform(d.parameter_types, t -> mallard_catalog.pg.mallard_proc_type(t))) AS argtypes,
        COALESCE(m.argnames, d.parameters) AS argnames,
        m.proname IS NOT NULL AS declared,
        m.args AS declared_args, m.identity_args AS declared_identity_args, m.result AS declared_result,
        m.allargtypes, m.argmodes, COALESCE(m.nargdefaults, 0) AS nargdefaults
    FROM duckdb_functions() AS d
    LEFT JOIN mallard_catalog.pg.mallard_signatures AS m
        ON d.database_name = 'system' AND d.schema_name = 'main' AND d.function_type = 'table'
            AND m.proname = d.function_name
    WHERE (d.database_name = 'system' AND d.schema_name = 'main'
            AND d.function_name NOT IN (SELECT function_name FROM own))
        OR (d.database_name = 'mallard_catalog' AND d.schema_name = 'pg'
            AND d.function_name NOT LIKE 'mallard\_%' ESCAPE '\')
        OR (d.database_name = current_database() AND d.schema_name <> 'main')
)
SELECT
    mallard_catalog.pg.mallard_sub_oid(f.function_oid, 0, f.k) AS oid,
    f.function_name AS proname,
    CASE WHEN f.database_name = current_database()
        THEN mallard_catalog.pg.mallard_nspoid(f.schema_name, s.oid) ELSE 11 END AS pronamespace,
    f.function_type,
    CASE
        WHEN f.function_type = 'aggregate' AND f.function_oid = 0 THEN 'w'
        WHEN f.function_type = 'aggregate' THEN 'a'
        ELSE 'f'
    END AS prokind,
    f.function_type IN ('table', 'table_macro') AS proretset,
    CASE f.stability
        WHEN 'CONSISTENT' THEN 'i' WHEN 'CONSISTENT_WITHIN_QUERY' THEN 's' ELSE 'v'
    END AS provolatile,
    CASE WHEN f.function_type IN ('macro', 'table_macro') THEN 14 ELSE 12 END AS prolang,
    len(f.argtypes) AS pronargs,
    CASE
        WHEN f.function_type IN ('table', 'table_macro') THEN 2249
        ELSE mallard_catalog.pg.mallard_proc_type(f.return_type)
    END AS prorettype,
    f.argtypes,
    CASE WHEN f.varargs IS NULL THEN 0 ELSE mallard_catalog.pg.mallard_proc_type(f.varargs) END AS provariadic,
    f.argnames AS proargnames,
    f.allargtypes,
    f.argmodes,
    f.nargdefaults,
    COALESCE(f.macro_definition, f.function_name) AS prosrc,
    f.comment,
    f.database_name = current_database() AS user_defined,
    COALESCE(f.declared_identity_args,
        array_to_string(list_transform(f.argtypes, t -> COALESCE(mallard_catalog.pg.mallard_oid_name(t), 'text')), ', ')) AS identity_args,
    COALESCE(f.declared_args, array_to_string(list_transform(list_zip(f.parameters, f.argtypes),
        p -> mallard_catalog.pg.quote_ident(p[1]) || ' ' || COALESCE(mallard_catalog.pg.mallard_oid_name(p[2]), 'text')), ', ')) AS args,
    CASE
        WHEN f.declared THEN f.declared_result
        WHEN f.function_type IN ('table', 'table_macro') THEN 'SETOF record'
        ELSE COALESCE(mallard_catalog.pg.mallard_oid_name(mallard_catalog.pg.mallard_proc_type(f.return_type)), 'text')
    END AS result
FROM f
LEFT JOIN duckdb_schemas() AS s ON s.database_name = f.database_name AND s.schema_name = f.schema_name;
