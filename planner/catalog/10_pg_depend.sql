-- pg_depend is empty: Mallard records no dependencies between catalog objects.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_depend AS
SELECT
    CAST(NULL AS BIGINT) AS classid,
    CAST(NULL AS BIGINT) AS objid,
    CAST(NULL AS INTEGER) AS objsubid,
    CAST(NULL AS BIGINT) AS refclassid,
    CAST(NULL AS BIGINT) AS refobjid,
    CAST(NULL AS INTEGER) AS refobjsubid,
    CAST(NULL AS pg_char) AS deptype
WHERE false;
