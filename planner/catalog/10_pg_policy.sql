-- pg_policy is empty: DuckDB has no row security policies.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_policy AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS polname,
    CAST(NULL AS BIGINT) AS polrelid,
    CAST(NULL AS pg_char) AS polcmd,
    CAST(NULL AS BOOLEAN) AS polpermissive,
    CAST(NULL AS BIGINT[]) AS polroles,
    CAST(NULL AS VARCHAR) AS polqual,
    CAST(NULL AS VARCHAR) AS polwithcheck
WHERE false;
