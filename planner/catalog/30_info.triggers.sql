-- information_schema.triggers is empty: DuckDB has no triggers.
CREATE OR REPLACE VIEW mallard_catalog.info.triggers AS
SELECT
    CAST(NULL AS pg_name) AS trigger_catalog,
    CAST(NULL AS pg_name) AS trigger_schema,
    CAST(NULL AS pg_name) AS trigger_name,
    CAST(NULL AS pg_varchar) AS event_manipulation,
    CAST(NULL AS pg_name) AS event_object_catalog,
    CAST(NULL AS pg_name) AS event_object_schema,
    CAST(NULL AS pg_name) AS event_object_table,
    CAST(NULL AS INTEGER) AS action_order,
    CAST(NULL AS pg_varchar) AS action_condition,
    CAST(NULL AS pg_varchar) AS action_statement,
    CAST(NULL AS pg_varchar) AS action_orientation,
    CAST(NULL AS pg_varchar) AS action_timing,
    CAST(NULL AS pg_name) AS action_reference_old_table,
    CAST(NULL AS pg_name) AS action_reference_new_table,
    CAST(NULL AS pg_name) AS action_reference_old_row,
    CAST(NULL AS pg_name) AS action_reference_new_row,
    CAST(NULL AS TIMESTAMPTZ) AS created
WHERE false;
