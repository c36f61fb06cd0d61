-- pg_ts_config is empty: there is no text search.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_ts_config AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS cfgname,
    CAST(NULL AS BIGINT) AS cfgnamespace,
    CAST(NULL AS BIGINT) AS cfgowner,
    CAST(NULL AS BIGINT) AS cfgparser
WHERE false;
