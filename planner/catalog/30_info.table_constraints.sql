-- information_schema.table_constraints lists the constraints of pg_constraint
-- and, as PostgreSQL 15 does, each NOT NULL column as a CHECK constraint
-- named <namespace oid>_<table oid>_<column number>_not_null.
CREATE OR REPLACE VIEW mallard_catalog.info.table_constraints AS
SELECT
    CAST(current_database() AS pg_name) AS constraint_catalog,
    CAST(nspname AS pg_name) AS constraint_schema,
    CAST(conname AS pg_name) AS constraint_name,
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(nspname AS pg_name) AS table_schema,
    CAST(relname AS pg_name) AS table_name,
    CAST(constraint_type AS pg_varchar) AS constraint_type,
    CAST('NO' AS pg_varchar) AS is_deferrable,
    CAST('NO' AS pg_varchar) AS initially_deferred,
    CAST('YES' AS pg_varchar) AS enforced,
    CAST(CASE WHEN constraint_type = 'UNIQUE' THEN 'YES' END AS pg_varchar) AS nulls_distinct
FROM (
    SELECT nspname, relname, conname,
        CASE contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' WHEN 'f' THEN 'FOREIGN KEY' ELSE 'CHECK' END AS constraint_type
    FROM mallard_catalog.pg.mallard_constraints
    UNION ALL
    SELECT nspname, relname, relnamespace || '_' || attrelid || '_' || attnum || '_not_null', 'CHECK'
    FROM mallard_catalog.pg.mallard_columns
    WHERE relkind = 'r' AND attnotnull AND relnamespace NOT IN (11, 13207)
);
