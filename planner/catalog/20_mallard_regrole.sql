-- mallard_regrole(name) is name::regrole: 10 for Mallard's one role; any
-- other name raises 'role "name" does not exist'.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regrole(p_name) AS
    CASE
        WHEN p_name IS NULL THEN NULL
        WHEN regexp_full_match(trim(CAST(p_name AS VARCHAR)), '\d+') THEN CAST(trim(CAST(p_name AS VARCHAR)) AS BIGINT)
        WHEN mallard_catalog.pg.mallard_ident_parts(CAST(p_name AS VARCHAR))[-1] = mallard_catalog.pg.mallard_user()
            THEN CAST(10 AS BIGINT)
        ELSE error('role "' || p_name || '" does not exist (SQLSTATE 42704)')
    END;
