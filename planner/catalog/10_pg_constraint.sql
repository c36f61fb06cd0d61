-- pg_constraint lists the PRIMARY KEY ('p'), UNIQUE ('u'), FOREIGN KEY ('f')
-- and CHECK ('c') constraints of the current database's tables. conkey and
-- confkey are smallint lists of column numbers (int2[] in PostgreSQL too);
-- conbin holds a CHECK's expression as text, which pg_get_expr returns as is.
-- DuckDB checks every constraint immediately and knows only NO ACTION
-- foreign keys ('a'), MATCH SIMPLE ('s'); the operator columns are NULL.
CREATE OR REPLACE VIEW mallard_catalog.pg.pg_constraint AS
SELECT
    CAST(oid AS BIGINT) AS oid,
    CAST(conname AS pg_name) AS conname,
    CAST(connamespace AS BIGINT) AS connamespace,
    CAST(contype AS pg_char) AS contype,
    false AS condeferrable,
    false AS condeferred,
    true AS convalidated,
    CAST(conrelid AS BIGINT) AS conrelid,
    CAST(0 AS BIGINT) AS contypid,
    CAST(conindid AS BIGINT) AS conindid,
    CAST(0 AS BIGINT) AS conparentid,
    CAST(confrelid AS BIGINT) AS confrelid,
    CAST(CASE WHEN contype = 'f' THEN 'a' ELSE ' ' END AS pg_char) AS confupdtype,
    CAST(CASE WHEN contype = 'f' THEN 'a' ELSE ' ' END AS pg_char) AS confdeltype,
    CAST(CASE WHEN contype = 'f' THEN 's' ELSE ' ' END AS pg_char) AS confmatchtype,
    true AS conislocal,
    CAST(0 AS INTEGER) AS coninhcount,
    false AS connoinherit,
    conkey,
    confkey,
    CAST(NULL AS BIGINT[]) AS conpfeqop,
    CAST(NULL AS BIGINT[]) AS conppeqop,
    CAST(NULL AS BIGINT[]) AS conffeqop,
    CAST(NULL AS SMALLINT[]) AS confdelsetcols,
    CAST(NULL AS BIGINT[]) AS conexclop,
    conbin
FROM mallard_catalog.pg.mallard_constraints;
