-- mallard_scalar_oid(data_type) is the OID of the PostgreSQL type a DuckDB
-- type is presented as on the wire, not looking inside lists: it must agree
-- with sqlfront/pgcodec.TypeFor, which a test checks for every type.
-- Integers become the smallest PostgreSQL integer that holds them; UBIGINT,
-- HUGEINT, UHUGEINT, BIGNUM and DECIMAL numeric; BIT varbit; ENUM text;
-- STRUCT, MAP, UNION, LIST and ARRAY json; storage's VARCHAR aliases
-- pg_name, pg_char, pg_varchar, pg_bpchar, pg_jsonb, pg_regclass,
-- pg_regtype, pg_regproc and pg_regnamespace name, "char", varchar, bpchar,
-- jsonb, regclass, regtype, regproc and regnamespace, its DECIMAL alias
-- pg_money money; lists of its vector element aliases
-- (pg_int2vector_elem[], pg_oidvector_elem[]) int2vector and oidvector,
-- and those elements smallint and bigint; any other type text.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_scalar_oid(data_type) AS
    CAST(COALESCE(
        [16, 21, 21, 21, 23, 23, 20, 20, 1700, 1700, 1700, 1700, 1700, 700, 701, 114, 17, 2950,
         1562, 1082, 1083, 1266, 1266, 1114, 1114, 1114, 1114, 1184, 1184, 1186, 114, 114, 114,
         114, 114, 19, 18, 1043, 22, 30, 21, 20, 1042, 3802, 790, 2205, 2206, 24, 4089][list_position(
        ['BOOLEAN', 'TINYINT', 'UTINYINT', 'SMALLINT', 'USMALLINT', 'INTEGER', 'UINTEGER', 'BIGINT',
         'UBIGINT', 'HUGEINT', 'UHUGEINT', 'BIGNUM', 'DECIMAL', 'FLOAT', 'DOUBLE', 'JSON', 'BLOB', 'UUID',
         'BIT', 'DATE', 'TIME', 'TIME WITH TIME ZONE', 'TIMETZ', 'TIMESTAMP', 'TIMESTAMP_S',
         'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMP WITH TIME ZONE', 'TIMESTAMPTZ', 'INTERVAL',
         'STRUCT', 'LIST', 'MAP', 'UNION', 'ARRAY', 'pg_name', 'pg_char', 'pg_varchar',
         'pg_int2vector_elem[]', 'pg_oidvector_elem[]', 'pg_int2vector_elem', 'pg_oidvector_elem',
         'pg_bpchar', 'pg_jsonb', 'pg_money', 'pg_regclass', 'pg_regtype', 'pg_regproc', 'pg_regnamespace'],
        mallard_catalog.pg.mallard_type_key(data_type))],
        25) AS BIGINT);
