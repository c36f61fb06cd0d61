-- pg_inherits is empty: DuckDB has no table inheritance or partitioning.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_inherits AS
SELECT
    CAST(NULL AS BIGINT) AS inhrelid,
    CAST(NULL AS BIGINT) AS inhparent,
    CAST(NULL AS INTEGER) AS inhseqno,
    CAST(NULL AS BOOLEAN) AS inhdetachpending
WHERE false;
