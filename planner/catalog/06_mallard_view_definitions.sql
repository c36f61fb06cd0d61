-- mallard_view_definitions holds the query of every view pg_class shows, for
-- pg_get_viewdef, pg_views and information_schema.views: DuckDB's text of
-- CREATE VIEW without the part up to AS. DuckDB writes count(*) back as
-- count_star(), which Postgres lacks: it is shown as count(*) again.
CREATE OR REPLACE VIEW mallard_catalog.pg.mallard_view_definitions AS
SELECT
    CAST(COALESCE(r.oid, v.view_oid) AS BIGINT) AS oid,
    ' ' || regexp_replace(regexp_replace(v.sql, '^\s*CREATE\s+(OR\s+REPLACE\s+)?(TEMP\w*\s+)?VIEW\s+.*?\s+AS\s+', '', 's'),
        '\bcount_star\(\)', 'count(*)', 'g') AS definition
FROM duckdb_views() AS v
LEFT JOIN mallard_catalog.pg.mallard_catalog_relations AS r
    ON v.database_name = 'mallard_catalog' AND r.relname = v.view_name
    AND r.nspname = CASE v.schema_name WHEN 'pg' THEN 'pg_catalog' ELSE 'information_schema' END
WHERE (v.database_name = current_database() AND v.schema_name <> 'main' AND NOT v.internal)
    OR r.oid IS NOT NULL;
