-- pg_type lists PostgreSQL 15's built-in types (mallard_builtin_types, with
-- PostgreSQL's OIDs) and one row per ENUM type of the current database,
-- under DuckDB's OID for it. Columns of an ENUM type are presented as text
-- on the wire, so pg_attribute types them text; the enum's own row is here
-- for pg_enum and for clients that list types. Enum types have no array
-- type row (typarray 0).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_type AS
SELECT
    oid, CAST(typname AS pg_name) AS typname, CAST(11 AS BIGINT) AS typnamespace,
    CAST(10 AS BIGINT) AS typowner, typlen, typbyval, CAST(typtype AS pg_char) AS typtype,
    CAST(typcategory AS pg_char) AS typcategory, typispreferred, true AS typisdefined,
    CAST(typdelim AS pg_char) AS typdelim, CAST(0 AS BIGINT) AS typrelid, typsubscript, typelem,
    typarray, typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze,
    CAST(typalign AS pg_char) AS typalign, CAST(typstorage AS pg_char) AS typstorage,
    false AS typnotnull, CAST(0 AS BIGINT) AS typbasetype, CAST(-1 AS INTEGER) AS typtypmod,
    CAST(0 AS INTEGER) AS typndims, typcollation, CAST(NULL AS VARCHAR) AS typdefaultbin,
    CAST(NULL AS VARCHAR) AS typdefault, CAST(NULL AS VARCHAR[]) AS typacl
FROM mallard_catalog.pg.mallard_builtin_types
UNION ALL
SELECT
    type_oid, type_name, mallard_catalog.pg.mallard_nspoid(schema_name, schema_oid), 10,
    CAST(4 AS SMALLINT), true, 'e', 'E', false, true, ',',
    0, '-', 0, 0, 'enum_in', 'enum_out',
    'enum_recv', 'enum_send', '-', '-', '-', 'i', 'p',
    false, 0, -1,
    0, 0, NULL,
    NULL, NULL
FROM duckdb_types()
WHERE database_name = current_database() AND schema_name <> 'main'
    AND logical_type = 'ENUM' AND NOT internal AND type_oid IS NOT NULL;
