-- mallard_regnamespace(name) is name::regnamespace: the OID of the schema
-- name (quoted or not) names, a number taken as the OID itself; an unknown
-- schema raises 'schema "name" does not exist'.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regnamespace(p_name) AS
    CASE
        WHEN p_name IS NULL THEN NULL
        WHEN regexp_full_match(trim(CAST(p_name AS VARCHAR)), '\d+') THEN CAST(trim(CAST(p_name AS VARCHAR)) AS BIGINT)
        ELSE COALESCE((
            SELECT __n.oid
            FROM (SELECT mallard_catalog.pg.mallard_ident_parts(CAST(p_name AS VARCHAR))[-1] AS v) AS __arg
            JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.nspname = __arg.v
        ), error('schema "' || p_name || '" does not exist (SQLSTATE 3F000)'))
    END;
