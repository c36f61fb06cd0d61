-- pg_ts_parser is empty: there is no text search.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_ts_parser AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS prsname,
    CAST(NULL AS BIGINT) AS prsnamespace,
    CAST(NULL AS VARCHAR) AS prsstart,
    CAST(NULL AS VARCHAR) AS prstoken,
    CAST(NULL AS VARCHAR) AS prsend,
    CAST(NULL AS VARCHAR) AS prsheadline,
    CAST(NULL AS VARCHAR) AS prslextype
WHERE false;
