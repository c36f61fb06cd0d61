-- pg_sequences lists the current database's sequences (see pg_sequence).
-- data_type is regtype in PostgreSQL, shown here as its text, bigint.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_sequences AS
SELECT
    schema_name AS schemaname,
    sequence_name AS sequencename,
    mallard_catalog.pg.mallard_user() AS sequenceowner,
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
