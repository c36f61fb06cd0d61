-- pg_operator is empty: DuckDB's operators are built in, and there are no user-defined ones.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_operator AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS oprname,
    CAST(NULL AS BIGINT) AS oprnamespace,
    CAST(NULL AS BIGINT) AS oprowner,
    CAST(NULL AS pg_char) AS oprkind,
    CAST(NULL AS BOOLEAN) AS oprcanmerge,
    CAST(NULL AS BOOLEAN) AS oprcanhash,
    CAST(NULL AS BIGINT) AS oprleft,
    CAST(NULL AS BIGINT) AS oprright,
    CAST(NULL AS BIGINT) AS oprresult,
    CAST(NULL AS BIGINT) AS oprcom,
    CAST(NULL AS BIGINT) AS oprnegate,
    CAST(NULL AS VARCHAR) AS oprcode,
    CAST(NULL AS VARCHAR) AS oprrest,
    CAST(NULL AS VARCHAR) AS oprjoin
WHERE false;
