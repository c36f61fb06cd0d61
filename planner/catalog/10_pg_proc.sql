-- pg_proc lists the functions of mallard_functions. proargtypes is an
-- oidvector, as in PostgreSQL (a list of storage's pg_oidvector_elem):
-- pgjdbc reads it whole as text, "23 25", and splits it; psql reads
-- proargtypes[0]. Aggregates are prokind 'a', DuckDB's window functions
-- 'w', everything else 'f'; macros are language sql (14), built-in
-- functions internal (12). Mallard's table functions show their declared
-- arguments and defaults (see mallard_signatures).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_proc AS
SELECT
    CAST(oid AS BIGINT) AS oid,
    CAST(proname AS pg_name) AS proname,
    CAST(pronamespace AS BIGINT) AS pronamespace,
    CAST(10 AS BIGINT) AS proowner,
    CAST(prolang AS BIGINT) AS prolang,
    CAST(1 AS FLOAT) AS procost,
    CAST(CASE WHEN proretset THEN 1000 ELSE 0 END AS FLOAT) AS prorows,
    CAST(provariadic AS BIGINT) AS provariadic,
    '-' AS prosupport,
    CAST(prokind AS pg_char) AS prokind,
    false AS prosecdef,
    false AS proleakproof,
    false AS proisstrict,
    proretset,
    CAST(provolatile AS pg_char) AS provolatile,
    CAST('s' AS pg_char) AS proparallel,
    CAST(pronargs AS SMALLINT) AS pronargs,
    CAST(nargdefaults AS SMALLINT) AS pronargdefaults,
    CAST(prorettype AS BIGINT) AS prorettype,
    CAST(argtypes AS pg_oidvector_elem[]) AS proargtypes,
    allargtypes AS proallargtypes,
    CAST(argmodes AS pg_char[]) AS proargmodes,
    proargnames,
    CAST(NULL AS VARCHAR) AS proargdefaults,
    CAST(NULL AS BIGINT[]) AS protrftypes,
    prosrc,
    CAST(NULL AS VARCHAR) AS probin,
    CAST(NULL AS VARCHAR) AS prosqlbody,
    CAST(NULL AS VARCHAR[]) AS proconfig,
    CAST(NULL AS VARCHAR[]) AS proacl
FROM mallard_catalog.pg.mallard_functions;
