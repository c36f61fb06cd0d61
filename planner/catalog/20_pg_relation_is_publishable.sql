-- pg_relation_is_publishable(rel_oid) is false: Mallard has no logical
-- replication.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_relation_is_publishable(rel_oid) AS false;
