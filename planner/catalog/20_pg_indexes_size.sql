-- pg_indexes_size(rel_oid) is 0: DuckDB does not report the size of its ART
-- indexes.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_indexes_size(rel_oid) AS CAST(0 AS BIGINT);
