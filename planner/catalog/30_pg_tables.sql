-- pg_tables lists the tables of pg_class (the user's and the catalog's) with
-- their owner, Mallard's one role.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_tables AS
SELECT
    n.nspname AS schemaname,
    c.relname AS tablename,
    mallard_catalog.pg.pg_get_userbyid(c.relowner) AS tableowner,
    CAST(NULL AS pg_name) AS tablespace,
    c.relhasindex AS hasindexes,
    c.relhasrules AS hasrules,
    c.relhastriggers AS hastriggers,
    c.relrowsecurity AS rowsecurity
FROM mallard_catalog.pg.pg_class AS c
JOIN mallard_catalog.pg.pg_namespace AS n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p');
