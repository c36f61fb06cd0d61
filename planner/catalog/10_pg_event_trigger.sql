-- pg_event_trigger is empty: DuckDB has no event triggers.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_event_trigger AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS pg_name) AS evtname,
    CAST(NULL AS pg_name) AS evtevent,
    CAST(NULL AS BIGINT) AS evtowner,
    CAST(NULL AS BIGINT) AS evtfoid,
    CAST(NULL AS pg_char) AS evtenabled,
    CAST(NULL AS VARCHAR[]) AS evttags
WHERE false;
