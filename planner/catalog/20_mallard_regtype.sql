-- mallard_regtype(name) is name::regtype: the OID of the type name names, in
-- any spelling PostgreSQL accepts for the built-in types ('integer', 'int4',
-- 'character varying(10)', 'double precision', 'timestamp with time zone',
-- '"char"', 'text[]', 'pg_catalog.int8') or by an enum type's name; a number
-- is taken as the OID itself. An unknown type raises 'type "name" does not
-- exist'.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_regtype(p_name) AS
    CASE
        WHEN p_name IS NULL THEN NULL
        WHEN regexp_full_match(trim(CAST(p_name AS VARCHAR)), '\d+') THEN CAST(trim(CAST(p_name AS VARCHAR)) AS BIGINT)
        ELSE COALESCE((
            SELECT CASE WHEN __q.is_array THEN __t.typarray ELSE __t.oid END
            FROM (
                SELECT is_array, CASE
                    WHEN quoted THEN replace(bare[2:-2], '""', '"')
                    ELSE COALESCE(
                        ['int4', 'int4', 'int2', 'int8', 'float4', 'float8', 'float8', 'bool', 'varchar',
                         'bpchar', 'bpchar', 'timestamp', 'timestamptz', 'time', 'timetz', 'numeric',
                         'numeric', 'varbit', 'bpchar'][list_position(
                        ['integer', 'int', 'smallint', 'bigint', 'real', 'double precision', 'float',
                         'boolean', 'character varying', 'character', 'char', 'timestamp without time zone',
                         'timestamp with time zone', 'time without time zone', 'time with time zone',
                         'decimal', 'dec', 'bit varying', 'national character'], bare)],
                        bare)
                END AS typname
                FROM (
                    SELECT is_array, bare LIKE '"%"' AS quoted,
                        CASE WHEN bare LIKE '"%"' THEN bare ELSE lower(regexp_replace(bare, '\s+', ' ', 'g')) END AS bare
                    FROM (
                        SELECT
                            regexp_matches(trim(CAST(p_name AS VARCHAR)), '\[\d*\]$') AS is_array,
                            regexp_replace(regexp_replace(regexp_replace(trim(CAST(p_name AS VARCHAR)),
                                '(\s*\[\d*\])+$', ''), '\s*\([^)]*\)', '', 'g'), '^pg_catalog\.', '') AS bare
                    )
                )
            ) AS __q
            JOIN mallard_catalog.pg.pg_type AS __t ON __t.typname = __q.typname
            ORDER BY __t.typnamespace <> 11
            LIMIT 1
        ), error('type "' || p_name || '" does not exist (SQLSTATE 42704)'))
    END;
