-- pg_tablespace lists PostgreSQL's two built-in tablespaces; every relation
-- is in pg_default (reltablespace 0).
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_tablespace AS
SELECT CAST(oid AS BIGINT) AS oid, CAST(spcname AS pg_name) AS spcname, CAST(10 AS BIGINT) AS spcowner,
       CAST(NULL AS VARCHAR[]) AS spcacl, CAST(NULL AS VARCHAR[]) AS spcoptions
FROM (VALUES (1663, 'pg_default'), (1664, 'pg_global')) AS t(oid, spcname);
