-- mallard_regproc_name(func_oid) is func_oid::regproc::text: the function's
-- name, '-' for 0, the number itself for an unknown OID. A name (the
-- regproc columns of static catalogs, such as pg_am.amhandler, hold one)
-- is itself.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regproc_name(p_func) AS
    CASE
        WHEN p_func IS NULL THEN NULL
        WHEN TRY_CAST(p_func AS BIGINT) IS NULL THEN CAST(p_func AS VARCHAR)
        WHEN TRY_CAST(p_func AS BIGINT) = 0 THEN '-'
        ELSE COALESCE((
            SELECT mallard_catalog.pg.quote_ident(__f.proname)
            FROM (SELECT TRY_CAST(p_func AS BIGINT) AS v) AS __arg
            JOIN mallard_catalog.pg.mallard_functions AS __f ON __f.oid = __arg.v
        ), CAST(p_func AS VARCHAR))
    END;
