-- information_schema.views lists the views of pg_class with their queries.
-- DuckDB's views cannot be written through.
CREATE OR REPLACE VIEW mallard_catalog.info.views AS
SELECT
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(n.nspname AS pg_name) AS table_schema,
    CAST(c.relname AS pg_name) AS table_name,
    CAST(d.definition AS pg_varchar) AS view_definition,
    CAST('NONE' AS pg_varchar) AS check_option,
    CAST('NO' AS pg_varchar) AS is_updatable,
    CAST('NO' AS pg_varchar) AS is_insertable_into,
    CAST('NO' AS pg_varchar) AS is_trigger_updatable,
    CAST('NO' AS pg_varchar) AS is_trigger_deletable,
    CAST('NO' AS pg_varchar) AS is_trigger_insertable_into
FROM mallard_catalog.pg.pg_class AS c
JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = c.relnamespace
LEFT JOIN mallard_catalog.pg.mallard_view_definitions AS d ON d.oid = c.oid
WHERE c.relkind = 'v';
