-- pg_opclass is empty: DuckDB's indexes have no operator classes to list,
-- and PostgreSQL's built-in ones would name operators Mallard lacks.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_opclass AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS opcmethod,
    CAST(NULL AS pg_name) AS opcname,
    CAST(NULL AS BIGINT) AS opcnamespace,
    CAST(NULL AS BIGINT) AS opcowner,
    CAST(NULL AS BIGINT) AS opcfamily,
    CAST(NULL AS BIGINT) AS opcintype,
    CAST(NULL AS BOOLEAN) AS opcdefault,
    CAST(NULL AS BIGINT) AS opckeytype
WHERE false;
