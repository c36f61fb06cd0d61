-- information_schema.table_constraints lists the constraints of pg_constraint
-- and, as PostgreSQL 15 does, each NOT NULL column as a CHECK constraint
-- named <namespace oid>_<table oid>_<column number>_not_null.
CREATE OR REPLACE VIEW mallard_catalog.info.table_constraints AS
SELECT
    CAST(current_database() AS VARCHAR) AS constraint_catalog,
    CAST(nspname AS VARCHAR) AS constraint_schema,
    CAST(conname AS VARCHAR) AS constraint_name,
    CAST(current_database() AS VARCHAR) AS table_catalog,
    CAST(nspname AS VARCHAR) AS table_schema,
    CAST(relname AS VARCHAR) AS table_name,
    CAST(constraint_type AS VARCHAR) AS constraint_type,
    CAST('NO' AS VARCHAR) AS is_deferrable,
    CAST('NO' AS VARCHAR) AS initially_deferred,
    CAST('YES' AS VARCHAR) AS enforced,
    CAST(CASE WHEN constraint_type = 'UNIQUE' THEN 'YES' END AS VARCHAR) AS nulls_distinct
FROM (
    SELECT nspname, relname, conname,
        CASE contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' WHEN 'f' THEN 'FOREIGN KEY' ELSE 'CHECK' END AS constraint_type
    FROM mallard_catalog.pg.mallard_constraints
    UNION ALL
    SELECT nspname, relname, relnamespace || '_' || attrelid || '_' || attnum || '_not_null', 'CHECK'
    FROM mallard_catalog.pg.mallard_columns
    WHERE relkind = 'r' AND attnotnull AND relnamespace NOT IN (11, 13207)
);
