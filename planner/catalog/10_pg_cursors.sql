-- pg_cursors as the catalog alone can give it: no cursor, since the
-- cursors are the wire session's (sqlfront). A running server replaces this
-- view with ops/10_pg_cursors.sql, which lists the calling session's.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_cursors AS
SELECT
    CAST(NULL AS VARCHAR) AS name,
    CAST(NULL AS VARCHAR) AS statement,
    CAST(NULL AS BOOLEAN) AS is_holdable,
    CAST(NULL AS BOOLEAN) AS is_binary,
    CAST(NULL AS BOOLEAN) AS is_scrollable,
    CAST(NULL AS TIMESTAMPTZ) AS creation_time
WHERE false;
