-- mallard_regproc(name) is name::regproc: the OID of the function name names
-- (the first overload, where PostgreSQL would refuse an ambiguous name); a
-- number is taken as the OID itself. An unknown function raises
-- 'function "name" does not exist'.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regproc(p_name) AS
    CASE
        WHEN p_name IS NULL THEN NULL
        WHEN regexp_full_match(trim(CAST(p_name AS VARCHAR)), '\d+') THEN CAST(trim(CAST(p_name AS VARCHAR)) AS BIGINT)
        ELSE COALESCE((
            SELECT min(__f.oid)
            FROM (SELECT mallard_catalog.pg.mallard_ident_parts(CAST(p_name AS VARCHAR))[-1] AS v) AS __arg
            JOIN mallard_catalog.pg.mallard_functions AS __f ON __f.proname = __arg.v
        ), error('function "' || p_name || '" does not exist (SQLSTATE 42883)'))
    END;
