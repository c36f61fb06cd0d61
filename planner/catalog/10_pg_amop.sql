-- pg_amop is empty, as pg_opfamily is: there are no operator families.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_amop AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS amopfamily,
    CAST(NULL AS BIGINT) AS amoplefttype,
    CAST(NULL AS BIGINT) AS amoprighttype,
    CAST(NULL AS SMALLINT) AS amopstrategy,
    CAST(NULL AS pg_char) AS amoppurpose,
    CAST(NULL AS BIGINT) AS amopopr,
    CAST(NULL AS BIGINT) AS amopmethod,
    CAST(NULL AS BIGINT) AS amopsortfamily
WHERE false;
