-- pg_partition_ancestors(rel_oid) is the relation itself: DuckDB has no
-- partitioned tables, so no relation has ancestors. depth is the 1 that
-- WITH ORDINALITY would number that one row with: psql's \d reads the
-- call WITH ORDINALITY AS a(relid, depth), which DuckDB does not number
-- for a table macro.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_partition_ancestors(rel_oid) AS TABLE
    SELECT CAST(rel_oid AS BIGINT) AS relid, CAST(1 AS BIGINT) AS depth;
