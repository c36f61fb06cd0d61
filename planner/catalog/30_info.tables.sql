-- information_schema.tables lists the relations of pg_class that PostgreSQL
-- lists there: tables and views, the user's and the catalog's.
CREATE OR REPLACE VIEW mallard_catalog.info.tables AS
SELECT
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(n.nspname AS pg_name) AS table_schema,
    CAST(c.relname AS pg_name) AS table_name,
    CAST(CASE c.relkind WHEN 'v' THEN 'VIEW' ELSE 'BASE TABLE' END AS pg_varchar) AS table_type,
    CAST(NULL AS pg_name) AS self_referencing_column_name,
    CAST(NULL AS pg_varchar) AS reference_generation,
    CAST(NULL AS pg_name) AS user_defined_type_catalog,
    CAST(NULL AS pg_name) AS user_defined_type_schema,
    CAST(NULL AS pg_name) AS user_defined_type_name,
    CAST(CASE c.relkind WHEN 'v' THEN 'NO' ELSE 'YES' END AS pg_varchar) AS is_insertable_into,
    CAST('NO' AS pg_varchar) AS is_typed,
    CAST(NULL AS pg_varchar) AS commit_action
FROM mallard_catalog.pg.pg_class AS c
JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'v');
