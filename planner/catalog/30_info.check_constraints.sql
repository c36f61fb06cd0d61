-- information_schema.check_constraints lists the CHECK constraints, and the
-- NOT NULL columns as PostgreSQL 15 does (see table_constraints).
CREATE OR REPLACE VIEW mallard_catalog.info.check_constraints AS
SELECT
    CAST(current_database() AS pg_name) AS constraint_catalog,
    CAST(nspname AS pg_name) AS constraint_schema,
    CAST(conname AS pg_name) AS constraint_name,
    CAST(check_clause AS pg_varchar) AS check_clause
FROM (
    SELECT nspname, conname, '(' || conbin || ')' AS check_clause
    FROM mallard_catalog.pg.mallard_constraints
    WHERE contype = 'c'
    UNION ALL
    SELECT nspname, relnamespace || '_' || attrelid || '_' || attnum || '_not_null',
        mallard_catalog.pg.quote_ident(attname) || ' IS NOT NULL'
    FROM mallard_catalog.pg.mallard_columns
    WHERE relkind = 'r' AND attnotnull AND relnamespace NOT IN (11, 13207)
);
