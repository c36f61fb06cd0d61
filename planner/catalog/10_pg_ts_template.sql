-- pg_ts_template is empty: there is no text search.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_ts_template AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS tmplname,
    CAST(NULL AS BIGINT) AS tmplnamespace,
    CAST(NULL AS VARCHAR) AS tmplinit,
    CAST(NULL AS VARCHAR) AS tmpllexize
WHERE false;
