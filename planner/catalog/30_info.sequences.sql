-- information_schema.sequences lists the current database's sequences, all
-- bigint.
CREATE OR REPLACE VIEW mallard_catalog.info.sequences AS
SELECT
    CAST(current_database() AS pg_name) AS sequence_catalog,
    CAST(schema_name AS pg_name) AS sequence_schema,
    CAST(sequence_name AS pg_name) AS sequence_name,
    CAST('bigint' AS pg_varchar) AS data_type,
    CAST(64 AS INTEGER) AS numeric_precision,
    CAST(2 AS INTEGER) AS numeric_precision_radix,
    CAST(0 AS INTEGER) AS numeric_scale,
    CAST(CAST(start_value AS VARCHAR) AS pg_varchar) AS start_value,
    CAST(CAST(min_value AS VARCHAR) AS pg_varchar) AS minimum_value,
    CAST(CAST(max_value AS VARCHAR) AS pg_varchar) AS maximum_value,
    CAST(CAST(increment_by AS VARCHAR) AS pg_varchar) AS increment,
    CAST(CASE WHEN "cycle" THEN 'YES' ELSE 'NO' END AS pg_varchar) AS cycle_option
FROM duckdb_sequences()
WHERE database_name = current_database() AND schema_name <> 'main';
