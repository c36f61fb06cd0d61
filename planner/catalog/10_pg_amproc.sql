-- pg_amproc is empty, as pg_opfamily is: there are no operator families.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_amproc AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS amprocfamily,
    CAST(NULL AS BIGINT) AS amproclefttype,
    CAST(NULL AS BIGINT) AS amprocrighttype,
    CAST(NULL AS SMALLINT) AS amprocnum,
    CAST(NULL AS VARCHAR) AS amproc
WHERE false;
