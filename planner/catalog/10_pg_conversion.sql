-- pg_conversion is empty: there are no user-defined conversions.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_conversion AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS conname,
    CAST(NULL AS BIGINT) AS connamespace,
    CAST(NULL AS BIGINT) AS conowner,
    CAST(NULL AS INTEGER) AS conforencoding,
    CAST(NULL AS INTEGER) AS contoencoding,
    CAST(NULL AS VARCHAR) AS conproc,
    CAST(NULL AS BOOLEAN) AS condefault
WHERE false;
