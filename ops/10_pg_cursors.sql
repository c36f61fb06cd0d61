-- pg_cursors lists the calling session's open cursors, with Postgres'
-- columns. Mallard's cursors read forward only and send each FETCH in the
-- formats it asks for, so none is binary or scrollable. psycopg 3 reads it
-- before closing a server-side cursor whose query failed.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_cursors AS
SELECT
    c.name,
    c.statement,
    c.is_holdable,
    false AS is_binary,
    false AS is_scrollable,
    c.creation_time
FROM mallard_cursors(coalesce(getvariable('mallard_connection'), '')) AS c;
