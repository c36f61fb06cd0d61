-- pg_shdescription holds the comment on the current database, if DuckDB has
-- one (duckdb_databases().comment).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_shdescription AS
SELECT
    mallard_catalog.pg.mallard_database_oid() AS objoid,
    CAST(1262 AS BIGINT) AS classoid,
    comment AS description
FROM duckdb_databases()
WHERE database_name = current_database() AND comment IS NOT NULL;
