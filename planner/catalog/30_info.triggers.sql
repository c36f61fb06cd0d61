-- information_schema.triggers is empty: DuckDB has no triggers.
CREATE OR REPLACE VIEW mallard_catalog.info.triggers AS
SELECT
    CAST(NULL AS VARCHAR) AS trigger_catalog,
    CAST(NULL AS VARCHAR) AS trigger_schema,
    CAST(NULL AS VARCHAR) AS trigger_name,
    CAST(NULL AS VARCHAR) AS event_manipulation,
    CAST(NULL AS VARCHAR) AS event_object_catalog,
    CAST(NULL AS VARCHAR) AS event_object_schema,
    CAST(NULL AS VARCHAR) AS event_object_table,
    CAST(NULL AS INTEGER) AS action_order,
    CAST(NULL AS VARCHAR) AS action_condition,
    CAST(NULL AS VARCHAR) AS action_statement,
    CAST(NULL AS VARCHAR) AS action_orientation,
    CAST(NULL AS VARCHAR) AS action_timing,
    CAST(NULL AS VARCHAR) AS action_reference_old_table,
    CAST(NULL AS VARCHAR) AS action_reference_new_table,
    CAST(NULL AS VARCHAR) AS action_reference_old_row,
    CAST(NULL AS VARCHAR) AS action_reference_new_row,
    CAST(NULL AS TIMESTAMPTZ) AS created
WHERE false;
