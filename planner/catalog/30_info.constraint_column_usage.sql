-- information_schema.constraint_column_usage lists the columns each
-- constraint uses: a foreign key the referenced table's columns, any other
-- constraint its own table's.
CREATE OR REPLACE VIEW mallard_catalog.info.constraint_column_usage AS
SELECT
    CAST(current_database() AS pg_name) AS table_catalog,
    CAST(nspname AS pg_name) AS table_schema,
    CAST(table_name AS pg_name) AS table_name,
    CAST(column_name AS pg_name) AS column_name,
    CAST(current_database() AS pg_name) AS constraint_catalog,
    CAST(nspname AS pg_name) AS constraint_schema,
    CAST(conname AS pg_name) AS constraint_name
FROM (
    SELECT nspname, conname,
        CASE WHEN contype = 'f' THEN referenced_table ELSE relname END AS table_name,
        unnest(CASE WHEN contype = 'f' THEN referenced_column_names ELSE constraint_column_names END) AS column_name
    FROM mallard_catalog.pg.mallard_constraints
);
