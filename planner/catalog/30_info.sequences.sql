-- information_schema.sequences lists the current database's sequences, all
-- bigint.
CREATE OR REPLACE VIEW mallard_catalog.info.sequences AS
SELECT
    CAST(current_database() AS VARCHAR) AS sequence_catalog,
    CAST(schema_name AS VARCHAR) AS sequence_schema,
    CAST(sequence_name AS VARCHAR) AS sequence_name,
    CAST('bigint' AS VARCHAR) AS data_type,
    CAST(64 AS INTEGER) AS numeric_precision,
    CAST(2 AS INTEGER) AS numeric_precision_radix,
    CAST(0 AS INTEGER) AS numeric_scale,
    CAST(CAST(start_value AS VARCHAR) AS VARCHAR) AS start_value,
    CAST(CAST(min_value AS VARCHAR) AS VARCHAR) AS minimum_value,
    CAST(CAST(max_value AS VARCHAR) AS VARCHAR) AS maximum_value,
    CAST(CAST(increment_by AS VARCHAR) AS VARCHAR) AS increment,
    CAST(CASE WHEN "cycle" THEN 'YES' ELSE 'NO' END AS VARCHAR) AS cycle_option
FROM duckdb_sequences()
WHERE database_name = current_database() AND schema_name <> 'main';
