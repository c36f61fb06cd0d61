-- pg_extension is empty: DuckDB extensions are not PostgreSQL extensions, and
-- Mallard has none of PostgreSQL's (not even plpgsql), so clients that look
-- for one (PostGIS, TimescaleDB) find none.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_extension AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS extname,
    CAST(NULL AS BIGINT) AS extowner,
    CAST(NULL AS BIGINT) AS extnamespace,
    CAST(NULL AS BOOLEAN) AS extrelocatable,
    CAST(NULL AS VARCHAR) AS extversion,
    CAST(NULL AS BIGINT[]) AS extconfig,
    CAST(NULL AS VARCHAR[]) AS extcondition
WHERE false;
