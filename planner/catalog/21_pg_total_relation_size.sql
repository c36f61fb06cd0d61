-- pg_total_relation_size(rel_oid) is pg_relation_size(rel_oid): index sizes
-- are not known (see pg_indexes_size).
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_total_relation_size(rel_oid) AS mallard_catalog.pg.pg_relation_size(rel_oid);
