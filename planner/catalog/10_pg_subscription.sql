-- pg_subscription is empty: there is no logical replication.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_subscription AS
SELECT
    CAST(NULL AS BIGINT) AS oid,
    CAST(NULL AS BIGINT) AS subdbid,
    CAST(NULL AS VARCHAR) AS subskiplsn,
    CAST(NULL AS pg_name) AS subname,
    CAST(NULL AS BIGINT) AS subowner,
    CAST(NULL AS BOOLEAN) AS subenabled,
    CAST(NULL AS BOOLEAN) AS subbinary,
    CAST(NULL AS BOOLEAN) AS substream,
    CAST(NULL AS pg_char) AS subtwophasestate,
    CAST(NULL AS BOOLEAN) AS subdisableonerr,
    CAST(NULL AS VARCHAR) AS subconninfo,
    CAST(NULL AS pg_name) AS subslotname,
    CAST(NULL AS VARCHAR) AS subsynccommit,
    CAST(NULL AS VARCHAR[]) AS subpublications
WHERE false;
