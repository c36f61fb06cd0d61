-- pg_ts_config_map is empty: there is no text search.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_ts_config_map AS
SELECT
    CAST(NULL AS BIGINT) AS mapcfg,
    CAST(NULL AS INTEGER) AS maptokentype,
    CAST(NULL AS INTEGER) AS mapseqno,
    CAST(NULL AS BIGINT) AS mapdict
WHERE false;
