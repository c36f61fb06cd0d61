-- pg_indexes lists the indexes of mallard_indexes with their definitions as
-- pg_get_indexdef prints them.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_indexes AS
SELECT nspname AS schemaname, tablename, relname AS indexname,
       CAST(NULL AS VARCHAR) AS tablespace, indexdef
FROM mallard_catalog.pg.mallard_index_definitions;
