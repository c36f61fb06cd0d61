-- pg_table_size(rel_oid) is pg_relation_size(rel_oid): Mallard's tables have
-- no TOAST tables or other forks.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_table_size(rel_oid) AS mallard_catalog.pg.pg_relation_size(rel_oid);
