-- pg_range is empty: pg_type lists the built-in range types, but no column
-- or value Mallard presents is ever of one.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_range AS
SELECT
    CAST(NULL AS BIGINT) AS rngtypid,
    CAST(NULL AS BIGINT) AS rngsubtype,
    CAST(NULL AS BIGINT) AS rngmultitypid,
    CAST(NULL AS BIGINT) AS rngcollation,
    CAST(NULL AS BIGINT) AS rngsubopc,
    CAST(NULL AS VARCHAR) AS rngcanonical,
    CAST(NULL AS VARCHAR) AS rngsubdiff
WHERE false;
