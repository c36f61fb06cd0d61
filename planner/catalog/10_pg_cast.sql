-- pg_cast is empty: DuckDB's casts are built in, and pg_dump dumps only user-defined ones.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_cast AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS castsource,
    CAST(NULL AS BIGINT) AS casttarget,
    CAST(NULL AS BIGINT) AS castfunc,
    CAST(NULL AS pg_char) AS castcontext,
    CAST(NULL AS pg_char) AS castmethod
WHERE false;
