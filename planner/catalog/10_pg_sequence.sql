-- pg_sequence lists the current database's sequences. DuckDB's sequences are
-- bigint (seqtypid 20) and cache nothing (seqcache 1).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_sequence AS
SELECT
    CAST(sequence_oid AS BIGINT) AS seqrelid,
    CAST(20 AS BIGINT) AS seqtypid,
    start_value AS seqstart,
    increment_by AS seqincrement,
    max_value AS seqmax,
    min_value AS seqmin,
    CAST(1 AS BIGINT) AS seqcache,
    "cycle" AS seqcycle
FROM duckdb_sequences()
WHERE database_name = current_database() AND schema_name <> 'main';
