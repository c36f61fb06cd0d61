-- pg_sequences lists the current database's sequences (see pg_sequence).
-- data_type is regtype in PostgreSQL, shown here as its text, bigint.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_sequences AS
SELECT
    CAST(schema_name AS pg_name) AS schemaname,
    CAST(sequence_name AS pg_name) AS sequencename,
    CAST(mallard_catalog.pg.mallard_user() AS pg_name) AS sequenceowner,
    'bigint' AS data_type,
    start_value,
    min_value,
    max_value,
    increment_by,
    "cycle",
    CAST(1 AS BIGINT) AS cache_size,
    last_value
FROM duckdb_sequences()
WHERE database_name = current_database() AND schema_name <> 'main';
