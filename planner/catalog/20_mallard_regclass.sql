-- mallard_regclass(name) is the OID of the relation name names, as
-- name::regclass is in PostgreSQL: name may be schema-qualified and quoted
-- ('Public."My Table"'); unqualified, it is looked up in pg_catalog and then
-- the current schema; a number is taken as the OID itself. NULL gives NULL;
-- an unknown relation raises 'relation "name" does not exist'.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regclass(p_name) AS
    CASE
        WHEN p_name IS NULL THEN NULL
        WHEN regexp_full_match(trim(CAST(p_name AS VARCHAR)), '\d+') THEN CAST(trim(CAST(p_name AS VARCHAR)) AS BIGINT)
        ELSE COALESCE((
            SELECT __c.oid
            FROM (SELECT mallard_catalog.pg.mallard_ident_parts(CAST(p_name AS VARCHAR)) AS p) AS __arg
            JOIN mallard_catalog.pg.pg_class AS __c ON __c.relname = __arg.p[-1]
            JOIN mallard_catalog.pg.pg_namespace AS __n ON __n.oid = __c.relnamespace
            WHERE CASE WHEN len(__arg.p) = 1
                THEN __n.nspname IN ('pg_catalog', system.main.current_schema())
                ELSE __n.nspname = __arg.p[-2] END
            ORDER BY __n.oid <> 11
            LIMIT 1
        ), error('relation "' || p_name || '" does not exist (SQLSTATE 42P01)'))
    END;
