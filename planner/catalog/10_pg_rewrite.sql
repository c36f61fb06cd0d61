-- pg_rewrite is empty: DuckDB has no rules (views are not stored as rules).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_rewrite AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS rulename,
    CAST(NULL AS BIGINT) AS ev_class,
    CAST(NULL AS pg_char) AS ev_type,
    CAST(NULL AS pg_char) AS ev_enabled,
    CAST(NULL AS BOOLEAN) AS is_instead,
    CAST(NULL AS VARCHAR) AS ev_qual,
    CAST(NULL AS VARCHAR) AS ev_action
WHERE false;
