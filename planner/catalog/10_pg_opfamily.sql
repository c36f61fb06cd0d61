-- pg_opfamily is empty, as pg_opclass is: there are no operator families.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_opfamily AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS opfmethod,
    CAST(NULL AS pg_name) AS opfname,
    CAST(NULL AS BIGINT) AS opfnamespace,
    CAST(NULL AS BIGINT) AS opfowner
WHERE false;
