-- pg_seclabels is empty: there are no security labels.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_seclabels AS
SELECT
    CAST(NULL AS BIGINT) AS objoid,
    CAST(NULL AS BIGINT) AS classoid,
    CAST(NULL AS INTEGER) AS objsubid,
    CAST(NULL AS VARCHAR) AS objtype,
    CAST(NULL AS BIGINT) AS objnamespace,
    CAST(NULL AS VARCHAR) AS objname,
    CAST(NULL AS VARCHAR) AS provider,
    CAST(NULL AS VARCHAR) AS label
WHERE false;
