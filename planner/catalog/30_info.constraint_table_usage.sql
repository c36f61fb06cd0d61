-- information_schema.constraint_table_usage lists the table each constraint
-- uses: a foreign key the referenced table, any other constraint its own.
CREATE OR REPLACE VIEW mallard_catalog.info.constraint_table_usage AS
SELECT
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(nspname AS pg_name) AS table_schema,
    CAST(CASE WHEN contype = 'f' THEN referenced_table ELSE relname END AS pg_name) AS table_name,
    CAST(current_database() AS pg_name) AS constraint_catalog,
    CAST(nspname AS pg_name) AS constraint_schema,
    CAST(conname AS pg_name) AS constraint_name
FROM mallard_catalog.pg.mallard_constraints;
