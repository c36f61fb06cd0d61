-- pg_indexes lists the indexes of mallard_indexes with their definitions as
-- pg_get_indexdef prints them.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_indexes AS
SELECT CAST(nspname AS pg_name) AS schemaname, CAST(tablename AS pg_name) AS tablename,
       CAST(relname AS pg_name) AS indexname,
       CAST(NULL AS pg_name) AS tablespace, indexdef
FROM mallard_catalog.pg.mallard_index_definitions;
