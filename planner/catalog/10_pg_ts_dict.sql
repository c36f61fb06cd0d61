-- pg_ts_dict is empty: there is no text search.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_ts_dict AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS dictname,
    CAST(NULL AS BIGINT) AS dictnamespace,
    CAST(NULL AS BIGINT) AS dictowner,
    CAST(NULL AS BIGINT) AS dicttemplate,
    CAST(NULL AS VARCHAR) AS dictinitoption
WHERE false;
