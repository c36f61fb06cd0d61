-- pg_locks is empty: DuckDB's optimistic concurrency control takes no
-- locks that another session could wait for or inspect.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_locks AS
SELECT
    CAST(NULL AS VARCHAR) AS locktype,
    CAST(NULL AS BIGINT) AS database,
    CAST(NULL AS BIGINT) AS relation,
    CAST(NULL AS INTEGER) AS page,
    CAST(NULL AS SMALLINT) AS tuple,
    CAST(NULL AS VARCHAR) AS virtualxid,
    CAST(NULL AS BIGINT) AS transactionid,
    CAST(NULL AS BIGINT) AS classid,
    CAST(NULL AS BIGINT) AS objid,
    CAST(NULL AS SMALLINT) AS objsubid,
    CAST(NULL AS VARCHAR) AS virtualtransaction,
    CAST(NULL AS INTEGER) AS pid,
    CAST(NULL AS VARCHAR) AS mode,
    CAST(NULL AS BOOLEAN) AS granted,
    CAST(NULL AS BOOLEAN) AS fastpath,
    CAST(NULL AS TIMESTAMPTZ) AS waitstart
WHERE false;
