-- pg_stat_get_numscans(oid): index scans of a relation. DuckDB keeps no such
-- statistics; DBeaver reads it beside every index, so it is 0.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_stat_get_numscans(relid) AS 0::BIGINT
