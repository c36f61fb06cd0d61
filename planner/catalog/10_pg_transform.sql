-- pg_transform is empty: there are no transforms.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_transform AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS trftype,
    CAST(NULL AS BIGINT) AS trflang,
    CAST(NULL AS VARCHAR) AS trffromsql,
    CAST(NULL AS VARCHAR) AS trftosql
WHERE false;
