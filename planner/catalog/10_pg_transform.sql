-- pg_transform is empty: there are no transforms.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_transform AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS trftype,
    CAST(NULL AS BIGINT) AS trflang,
    CAST(NULL AS pg_regproc) AS trffromsql,
    CAST(NULL AS pg_regproc) AS trftosql
WHERE false;
