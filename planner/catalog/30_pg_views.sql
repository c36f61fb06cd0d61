-- pg_views lists the views of pg_class (the user's and the catalog's) with
-- their queries.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_views AS
SELECT
    n.nspname AS schemaname,
    c.relname AS viewname,
    mallard_catalog.pg.pg_get_userbyid(c.relowner) AS viewowner,
    d.definition
FROM mallard_catalog.pg.pg_class AS c
JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = c.relnamespace
LEFT JOIN mallard_catalog.pg.mallard_view_definitions AS d ON d.oid = c.oid
WHERE c.relkind = 'v';
