-- pg_partition_ancestors(rel_oid) is the relation itself: DuckDB has no
-- partitioned tables, so no relation has ancestors.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_partition_ancestors(rel_oid) AS TABLE
    SELECT CAST(rel_oid AS BIGINT) AS relid;
