-- format_type(type_oid, typemod) spells a type as PostgreSQL 15 does
-- (mallard_format_type), an array as its element type followed by [], the
-- modifier applying to the element. An unknown OID gives '???', a NULL one
-- NULL; a NULL typemod means none was given. Arrays are the pg_type rows
-- with an element type that are not stored plain (int2vector, oidvector and
-- name are not arrays), as in PostgreSQL.
CREATE OR REPLACE MACRO mallard_catalog.pg.format_type(p_type, p_typmod) AS
    CASE WHEN p_type IS NULL THEN NULL ELSE COALESCE((
        SELECT mallard_catalog.pg.mallard_format_type(b.basename, p_typmod) || b.suffix
        FROM (
            SELECT
                CASE WHEN e.oid IS NULL THEN t.typname ELSE e.typname END AS basename,
                CASE WHEN e.oid IS NULL THEN '' ELSE '[]' END AS suffix
            FROM mallard_catalog.pg.pg_type AS t
            LEFT JOIN mallard_catalog.pg.pg_type AS e
                ON e.oid = t.typelem AND t.typelem <> 0 AND t.typstorage <> 'p'
            WHERE t.oid = p_type
        ) AS b
    ), '???') END;
