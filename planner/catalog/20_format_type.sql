-- format_type(type_oid, typemod) spells a type as PostgreSQL 15 does
-- (mallard_format_type), an array as its element type followed by [], the
-- modifier applying to the element. An unknown OID gives '???', a NULL one
-- NULL; a NULL typemod means none was given. Arrays are the pg_type rows
-- with an element type that are not stored plain (int2vector, oidvector and
-- name are not arrays), as in PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.format_type(p_type, p_typmod) AS
    CASE WHEN p_type IS NULL THEN NULL ELSE COALESCE((
        WITH __types AS (SELECT oid, typname, typelem, typstorage FROM mallard_catalog.pg.pg_type)
        SELECT mallard_catalog.pg.mallard_format_type(__b.basename, __b.typmod) || __b.suffix
        FROM (
            SELECT
                CASE WHEN __e.oid IS NULL THEN __t.typname ELSE __e.typname END AS basename,
                CASE WHEN __e.oid IS NULL THEN '' ELSE '[]' END AS suffix,
                __arg.typmod
            FROM (SELECT p_type AS v, p_typmod AS typmod) AS __arg
            JOIN __types AS __t ON __t.oid = __arg.v
            LEFT JOIN __types AS __e
                ON __e.oid = __t.typelem AND __t.typelem <> 0 AND __t.typstorage <> 'p'
        ) AS __b
    ), '???') END;
