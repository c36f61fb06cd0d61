-- mallard_type_map maps the keys of mallard_type_key to the OID of the
-- PostgreSQL type pgcodec presents a DuckDB type as and the OID of that
-- type's array type; a key that is missing is presented as text. It is the
-- table form of mallard_scalar_oid and mallard_array_oid, which views join
-- instead of calling those macros: DuckDB binds a macro's list literals
-- anew in every query, and a join costs less.
CREATE OR REPLACE TABLE mallard_catalog.pg.mallard_type_map AS
SELECT CAST(type_key AS VARCHAR) AS type_key,
       mallard_catalog.pg.mallard_scalar_oid(type_key) AS oid,
       mallard_catalog.pg.mallard_array_oid(mallard_catalog.pg.mallard_scalar_oid(type_key)) AS array_oid
FROM (VALUES
    ('BOOLEAN'), ('TINYINT'), ('UTINYINT'), ('SMALLINT'), ('USMALLINT'), ('INTEGER'), ('UINTEGER'),
    ('BIGINT'), ('UBIGINT'), ('HUGEINT'), ('UHUGEINT'), ('BIGNUM'), ('DECIMAL'), ('FLOAT'), ('DOUBLE'),
    ('JSON'), ('BLOB'), ('UUID'), ('BIT'), ('DATE'), ('TIME'), ('TIME WITH TIME ZONE'), ('TIMETZ'),
    ('TIMESTAMP'), ('TIMESTAMP_S'), ('TIMESTAMP_MS'), ('TIMESTAMP_NS'), ('TIMESTAMP WITH TIME ZONE'),
    ('TIMESTAMPTZ'), ('INTERVAL'), ('VARCHAR'), ('ENUM'), ('STRUCT'), ('LIST'), ('MAP'), ('UNION'), ('ARRAY'),
    ('pg_name'), ('pg_char'), ('pg_varchar'), ('pg_int2vector_elem[]'), ('pg_oidvector_elem[]'),
    ('pg_int2vector_elem'), ('pg_oidvector_elem'), ('pg_bpchar'), ('pg_jsonb'), ('pg_money'), ('pg_regclass'),
    ('pg_regtype'), ('pg_regproc'), ('pg_regnamespace')
) AS k(type_key);
