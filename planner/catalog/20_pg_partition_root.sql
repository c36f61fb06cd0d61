-- pg_partition_root(rel_oid) is NULL: DuckDB has no partitioned tables.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_partition_root(rel_oid) AS CAST(NULL AS BIGINT);
