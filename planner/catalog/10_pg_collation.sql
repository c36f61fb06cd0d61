-- pg_collation lists PostgreSQL's built-in collations default (100), C (950)
-- and POSIX (951). DuckDB compares strings by code point, as C does.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_collation AS
SELECT
    CAST(oid AS BIGINT) AS oid, CAST(collname AS pg_name) AS collname, CAST(11 AS BIGINT) AS collnamespace,
    CAST(10 AS BIGINT) AS collowner, CAST(collprovider AS pg_char) AS collprovider, true AS collisdeterministic,
    CAST(-1 AS INTEGER) AS collencoding, collcollate, collctype,
    CAST(NULL AS VARCHAR) AS colliculocale, CAST(NULL AS VARCHAR) AS collversion
FROM (VALUES
    (100, 'default', 'd', NULL, NULL),
    (950, 'C', 'c', 'C', 'C'),
    (951, 'POSIX', 'c', 'POSIX', 'POSIX')
) AS c(oid, collname, collprovider, collcollate, collctype);
